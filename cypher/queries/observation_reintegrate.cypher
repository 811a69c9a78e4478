// Marks pending again the integrated observations of $ids that stay after another one
// of the space was forgotten (cypher.DeleteObservation), each a source of a memory that
// went with it (a merge, an exchange): what it said went with that memory, and its
// integration anew, from its own content, brings it back. In the forgetting's
// transaction, under its lock, so that a crash cannot leave one integrated with its
// memory gone. Each takes the space's forget count as its generation, as a message
// stored now does, so that what it adds derives other ids than the ones it derived
// before, some of which stay (cypher.ObservationKey); its attempts start afresh, and it
// is leased to $owner, who integrates it next ('': free, for any process's resumption).
// Params: $space, $ids, $owner, $until, $now.
// Returns: o (every property; one row per observation marked, by seq).
MATCH (s:Space {id: $space})
UNWIND $ids AS id
MATCH (o:Observation {space: $space, id: id})
USING INDEX o:Observation(space, id)
WHERE o.status = 'integrated'
SET o.status = 'pending', o.attempts = 0, o.error = null, o.generation = s.forgotten, o.updated_at = $now,
    o.lease_owner = CASE WHEN $owner = '' THEN null ELSE $owner END,
    o.lease_until = CASE WHEN $owner = '' THEN null ELSE $until END
WITH o ORDER BY o.seq
RETURN o {.*} AS o
