// Deletes one memory of a space with its edges and provenance (DETACH DELETE also
// removes it from the vector and full-text indexes) and gives the space a new
// memories_version (cypher.SpaceState). Observations stay.
// Params: $space, $id. Returns: deleted (a count), graph_before and graph_after (the
// space's graph_version before and after; null without a Space node), version_before and
// version_after (its memories_version, read under the same lock; the keyword index
// follows the deletion, keywords.go), neighbours (the ids
// of the memories it was related to but by provenance: their degree and edges change).
// It moves the space's graph_version first, under the Space node's lock: the snapshot of
// the space this process holds follows the deletion (graphcache.go followWrite).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  WITH g, g.graph_version AS graph_before
  SET g.graph_version = randomUUID()
  RETURN graph_before, g.graph_version AS graph_after
}
OPTIONAL MATCH (s:Space {id: $space})
WITH s, graph_before, graph_after, s.memories_version AS version_before
SET s.memories_version = randomUUID()
WITH s, graph_before, graph_after, version_before, s.memories_version AS version_after
OPTIONAL MATCH (m:Memory {id: $id, space: $space})
USING INDEX m:Memory(id)
WITH m, graph_before, graph_after, version_before, version_after, [(m)-[r]-(v:Memory) WHERE type(r) <> 'DERIVED_FROM' | v.id] AS neighbours
DETACH DELETE m
RETURN count(m) AS deleted, graph_before, graph_after, version_before, version_after, head(collect(neighbours)) AS neighbours
