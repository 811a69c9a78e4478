// Deletes one memory of a space with its edges and provenance (DETACH DELETE also
// removes it from the vector and full-text indexes) and gives the space a new
// memories_version (cypher.SpaceState). Observations stay. A memory that is not there
// changes nothing: the versions move only when it is deleted.
// Params: $space, $id, $now. Returns: deleted (a count), restored (a count), graph_before and graph_after (the
// space's graph_version before and after; null without a Space node), version_before and
// version_after (its memories_version, read under the same lock; the keyword index
// follows the deletion, keywords.go), neighbours (the ids
// of the memories it was related to but by provenance: their degree and edges change).
// It takes the Space node's lock first (as space_lock), then moves the space's
// graph_version: the snapshot of the space this process holds follows the deletion
// (graphcache.go followWrite). The space's running summary, which may say what the
// memory said, is emptied, as forgetting a message empties it (observation_delete_lock.cypher).
// A memory it superseded (a supersedes edge from it) holds again (REALM.md §2: its
// validity ended because of the newer version, now gone): its valid_until and
// superseded_at are cleared when nothing else supersedes it; when something does, its
// valid_until becomes the earliest start of those (their t_start when after its own,
// else their created_at: a correction keeps its original's times), as the write path
// ends a memory at its newer version's start. Restored: how many there were.
OPTIONAL MATCH (s:Space {id: $space})
SET s.locked_at = $now
WITH s, s.graph_version AS graph_before, s.memories_version AS version_before
OPTIONAL MATCH (m:Memory {id: $id, space: $space})
USING INDEX m:Memory(id)
FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END |
  SET s.graph_version = randomUUID(), s.memories_version = randomUUID(),
      s.summary_updated_at = CASE WHEN s.summary <> '' THEN $now ELSE s.summary_updated_at END,
      s.summary = CASE WHEN s.summary <> '' THEN '' ELSE s.summary END)
WITH m, graph_before, s.graph_version AS graph_after, version_before, s.memories_version AS version_after
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
