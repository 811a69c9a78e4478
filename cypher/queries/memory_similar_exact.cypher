// For each embedding of $embeddings, the $k memories of a space most similar to it, by
// an exact cosine scan of the space (exact and tenant-safe; used while the space is
// small, ARCHITECTURE.md Tenancy). One query for all the candidates of an observation.
// Params: $space, $embeddings, $k.
// Returns: i (the index in $embeddings), m (properties incl. embedding), score (the caller groups rows by i).
UNWIND range(0, size($embeddings) - 1) AS i
CALL (i) {
  MATCH (m:Memory {space: $space})
  WHERE m.embedding IS NOT NULL
  WITH m, vector.similarity.cosine(m.embedding, $embeddings[i]) AS score
  ORDER BY score DESC, m.id LIMIT $k
  RETURN m, score
}
RETURN i, m {.*} AS m, score
