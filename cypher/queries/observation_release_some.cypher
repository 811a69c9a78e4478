// Ends the leases $owner holds on the listed pending observations: a pass over pending
// work that stops early (Neo4j or a model away) hands back what it claimed and did not
// attempt, so that any process may take it up at once instead of when the leases expire.
// Params: $owner, $refs (list of {space, id}). Returns: n (how many leases ended).
UNWIND $refs AS ref
MATCH (o:Observation {space: ref.space, id: ref.id})
USING INDEX o:Observation(space, id)
WHERE o.status = 'pending' AND o.lease_owner = $owner
SET o.lease_owner = null, o.lease_until = null
RETURN count(o) AS n
