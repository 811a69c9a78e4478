// Ends the leases $owner holds on the listed pending observations: a pass over pending
// work that stops early (Neo4j or a model away) hands back what it claimed and did not
// attempt, so that any process may take it up at once instead of when the leases expire.
// One an attempt failed on (its error kept: observation_error.cypher) keeps its lease:
// the process that attempted it retries it, on the extraction it made (construction's
// kept extractions), and no other extracts it again.
// Params: $owner, $refs (list of {space, id}). Returns: n (how many leases ended).
UNWIND $refs AS ref
MATCH (o:Observation {space: ref.space, id: ref.id})
USING INDEX o:Observation(space, id)
WHERE o.status = 'pending' AND o.lease_owner = $owner AND o.error IS NULL
SET o.lease_owner = null, o.lease_until = null
RETURN count(o) AS n
