// For each embedding of $embeddings, the $k memories of a space most similar to it
// through the vector index. The 5.26 index cannot pre-filter by space (2026.x's filtered
// search, memory_similar_filtered.cypher, runs outside the caller's transaction: this
// serves the reads under the space's lock and the searches after a failed one), so it
// over-fetches $fetch nodes of all spaces and keeps this space's; the caller falls back to the exact
// scan for an embedding with too few left. One query for all the candidates of a run.
// Params: $space, $embeddings, $k, $fetch.
// Returns: i (the index in $embeddings), m (properties incl. embedding; null on the one
// row of an embedding without a match here), score (the caller groups rows by i).
UNWIND range(0, size($embeddings) - 1) AS i
OPTIONAL CALL (i) {
  CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embeddings[i]) YIELD node, score
  WHERE node.space = $space
  RETURN node, score
  ORDER BY score DESC, node.id LIMIT $k
}
RETURN i, node {.*} AS m, score
