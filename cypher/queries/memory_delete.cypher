// Deletes one memory of a space with its edges and provenance (DETACH DELETE also
// removes it from the vector and full-text indexes) and gives the space a new
// memories_version (cypher.SpaceState). Observations stay.
// Params: $space, $id. Returns: deleted (a count), restored (a count), graph_before and graph_after (the
// space's graph_version before and after; null without a Space node), version_before and
// version_after (its memories_version, read under the same lock; the keyword index
// follows the deletion, keywords.go), neighbours (the ids
// of the memories it was related to but by provenance: their degree and edges change).
// It moves the space's graph_version first, under the Space node's lock: the snapshot of
// the space this process holds follows the deletion (graphcache.go followWrite).
// A memory it superseded (a supersedes edge from it) holds again (REALM.md §2: its
// validity ended because of the newer version, now gone): its valid_until and
// superseded_at are cleared when nothing else supersedes it; when something does, its
// valid_until becomes the earliest start of those (their t_start when after its own,
// else their created_at: a correction keeps its original's times), as the write path
// ends a memory at its newer version's start. Restored: how many there were.
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
WITH m, graph_before, graph_after, version_before, version_after, [(m)-[r]-(v:Memory) WHERE type(r) <> 'DERIVED_FROM' | v.id] AS neighbours,
     [(m)-[:SUPERSEDES]->(o:Memory) WHERE o <> m | o] AS superseded
DETACH DELETE m
WITH count(m) AS deleted, graph_before, graph_after, version_before, version_after, head(collect(neighbours)) AS neighbours,
     head(collect(superseded)) AS superseded
CALL (superseded) {
  UNWIND coalesce(superseded, []) AS o
  WITH o, [(x:Memory)-[:SUPERSEDES]->(o) WHERE x <> o |
           CASE WHEN x.t_start IS NOT NULL AND (o.t_start IS NULL OR x.t_start > o.t_start) THEN x.t_start ELSE x.created_at END] AS starts
  WITH o, reduce(first = null, t IN starts | CASE WHEN first IS NULL OR t < first THEN t ELSE first END) AS end
  SET o.valid_until = end,
      o.superseded_at = CASE WHEN end IS NULL THEN null ELSE o.superseded_at END
  RETURN count(o) AS restored
}
RETURN deleted, restored, graph_before, graph_after, version_before, version_after, neighbours
