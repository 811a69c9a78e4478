// Removes a test or benchmark space's memories, their edges and its traces.
// Params: $space.
// Returns: nothing.
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
OPTIONAL MATCH (m:Memory) WHERE m.space = $space
DETACH DELETE m
WITH count(*) AS gone
OPTIONAL MATCH (t:Trace) WHERE t.space = $space
DELETE t
