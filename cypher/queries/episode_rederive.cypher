// Writes what an episode of a space says, derived again from the messages that stay
// after one it derived from was forgotten (cypher.Store.RederiveEpisode): $props replace
// its content, description, participants, keywords, times, embedding and word count (a
// null removes one). Under the space's lock (as space_lock), it moves the space's
// graph_version (the snapshot of the space this process holds follows it: graphcache.go
// followWrite) and its memories_version (cypher.SpaceState: the embeddings and keyword
// index held follow it).
// Params: $space, $id, $props, $now.
// Returns: graph_before, graph_after, version_before, version_after (the space's
// graph_version and memories_version before and after); no row when the episode is not
// in the space.
MATCH (s:Space {id: $space})
WITH s, s.graph_version AS graph_before, coalesce(s.memories_version, '') AS version_before
SET s.locked_at = $now, s.graph_version = randomUUID(), s.memories_version = randomUUID()
WITH s, graph_before, version_before
MATCH (e:Episode {id: $id})
WHERE e.space = $space
SET e += $props, e.updated_at = $now
RETURN graph_before, s.graph_version AS graph_after, version_before, s.memories_version AS version_after
