// The $k memories of a space most similar to $embedding through the vector index. The
// 5.26 index cannot pre-filter by space, so it over-fetches $fetch nodes of all spaces
// and keeps this space's; the caller falls back to the exact scan when too few remain.
// Params: $space, $embedding, $k, $fetch. Returns: m (properties incl. embedding), score.
CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embedding) YIELD node, score
WHERE node.space = $space
RETURN node {.*} AS m, score
ORDER BY score DESC, m.id LIMIT $k
