// Deletes up to $batch nodes of one space (memories with their edges, observations,
// traces, edits, jobs); called until it deletes nothing, so a large space never needs
// one huge transaction.
// Params: $space, $batch. Returns: deleted.
// It moves the space's graph_version first (expansion's snapshot of the space is then read
// again), and marks the space as being erased: no trace is written into it any more
// (trace_create.cypher).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID(), g.erasing = true
}
MATCH (n)
WHERE (n:Memory OR n:Observation OR n:Trace OR n:Edit OR n:Job) AND n.space = $space
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
