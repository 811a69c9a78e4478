// The $k memories of a space most similar to $embedding, by an exact cosine scan of the
// space (exact and tenant-safe; used while the space is small, ARCHITECTURE.md Tenancy).
// Params: $space, $embedding, $k. Returns: m (properties incl. embedding), score.
MATCH (m:Memory {space: $space})
WHERE m.embedding IS NOT NULL
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC LIMIT $k
RETURN m {.*} AS m, score
