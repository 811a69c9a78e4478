// Locks up to $limit pending observations, of $space ('': any space), whose lease is free, expired or
// already $owner's (a restarted process with the same owner takes its work back at once),
// oldest first per space; not those in $skip (the caller's process is integrating them)
// nor those of a space being imported. The lease itself is taken by
// observation_claim_lease.cypher, in the same transaction: see there why.
// Params: $space, $now, $owner, $limit, $skip (list of [space, id]).
// Returns: space, id (one row per observation locked).
MATCH (o:Observation)
WHERE o.status = 'pending' AND ($space = '' OR o.space = $space)
  AND (o.lease_until IS NULL OR o.lease_until < $now OR o.lease_owner = $owner)
  AND NOT [o.space, o.id] IN $skip
  AND NOT EXISTS { MATCH (s:Space {id: o.space}) WHERE s.import_id IS NOT NULL }
WITH o ORDER BY o.space, o.seq LIMIT $limit
SET o.claiming = true
REMOVE o.claiming
RETURN o.space AS space, o.id AS id
