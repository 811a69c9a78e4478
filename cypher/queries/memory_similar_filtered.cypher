// For each embedding of $embeddings, the $k memories of a space most similar to it
// through the vector index filtered by space inside the index (Neo4j 2026.x;
// memory_similar_index.cypher over-fetches on 5.26). One query for all the candidates
// of a run.
// Params: $space, $embeddings, $k.
// Returns: i (the index in $embeddings), m (properties incl. embedding; null on the one
// row of an embedding without a match here), score (the caller groups rows by i).
CYPHER 25
UNWIND range(0, size($embeddings) - 1) AS i
OPTIONAL CALL (i) {
  MATCH (m:Memory)
    SEARCH m IN (VECTOR INDEX memory_embedding FOR $embeddings[i] WHERE m.space = $space LIMIT $k) SCORE AS score
  RETURN m AS node, score
  ORDER BY score DESC, node.id
}
RETURN i, node {.*} AS m, score
