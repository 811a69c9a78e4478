// Reads a space's graph_version, which every statement that writes one of its memories,
// memory edges or edits moves (cypher/graphcache.go; the edits: edit_batch, edit_revert,
// edit_delete_space, the import's): a space's statistics are kept while it holds (Stats).
// Params: $space.
// Returns: graph_version ('' without a Space node or a version).
OPTIONAL MATCH (s:Space {id: $space})
RETURN coalesce(s.graph_version, '') AS graph_version
