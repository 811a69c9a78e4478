// The $limit most recent memories of a space, for a whole-space view.
// Params: $space, $limit. Returns: ids (list).
MATCH (n:Memory {space: $space})
WITH n ORDER BY n.created_at DESC, n.id LIMIT $limit
RETURN collect(n.id) AS ids
