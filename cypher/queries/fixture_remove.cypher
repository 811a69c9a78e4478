// Removes a test or benchmark space's memories, their edges and its traces.
// Params: $space.
// Returns: nothing.
OPTIONAL MATCH (m:Memory) WHERE m.space = $space
DETACH DELETE m
WITH count(*) AS gone
OPTIONAL MATCH (t:Trace) WHERE t.space = $space
DELETE t
