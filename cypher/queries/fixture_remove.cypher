// Removes a test or benchmark space's memories, their edges and its traces.
// Moves the space's memories_version when it has one (cypher.SpaceState).
// Params: $space.
// Returns: nothing.
// It moves the space's graph_version too (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (s:Space {id: $space})
  SET s.memories_version = randomUUID(), s.graph_version = randomUUID()
}
OPTIONAL MATCH (m:Memory) WHERE m.space = $space
DETACH DELETE m
WITH count(*) AS gone
OPTIONAL MATCH (t:Trace) WHERE t.space = $space
DELETE t
