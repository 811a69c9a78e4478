// Deletes one memory of a space with its edges and provenance (DETACH DELETE also
// removes it from the vector and full-text indexes) and gives the space a new
// memories_version (cypher.SpaceState). Observations stay.
// Params: $space, $id. Returns: deleted (a count).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
OPTIONAL MATCH (s:Space {id: $space})
SET s.memories_version = randomUUID()
WITH s
OPTIONAL MATCH (m:Memory {id: $id, space: $space})
USING INDEX m:Memory(id)
DETACH DELETE m
RETURN count(m) AS deleted
