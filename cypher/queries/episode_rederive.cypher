// Writes what an episode or an entity of a space says, derived again after a message it
// derived from was forgotten (cypher.Store.RederiveMemory): $props replace those it
// has (a null removes one). Under the space's lock (as space_lock), it moves the space's
// graph_version (the snapshot of the space this process holds follows it: graphcache.go
// followWrite) and its memories_version (cypher.SpaceState: the embeddings and keyword
// index held follow it).
// Params: $space, $id, $props, $now.
// Returns: graph_before, graph_after, version_before, version_after (the space's
// graph_version and memories_version before and after); no row when the memory is not
// in the space.
MATCH (s:Space {id: $space})
WITH s, s.graph_version AS graph_before, coalesce(s.memories_version, '') AS version_before
SET s.locked_at = $now, s.graph_version = randomUUID(), s.memories_version = randomUUID()
WITH s, graph_before, version_before
MATCH (e:Memory {id: $id})
USING INDEX e:Memory(id)
WHERE e.space = $space
SET e += $props, e.updated_at = $now
RETURN graph_before, s.graph_version AS graph_after, version_before, s.memories_version AS version_after
