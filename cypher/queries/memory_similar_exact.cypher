// For each embedding of $embeddings, the $k memories of a space most similar to it, by
// an exact cosine scan of the space (exact and tenant-safe; used while the space is
// small, ARCHITECTURE.md Tenancy). One pass over the space for all the candidates of a
// run: each memory's embedding is read once, not once per candidate.
// Params: $space, $embeddings, $k.
// Returns: i (the index in $embeddings), m (properties incl. embedding), score (the caller groups rows by i).
MATCH (m:Memory {space: $space})
WHERE m.embedding IS NOT NULL
WITH m, m.embedding AS e
UNWIND range(0, size($embeddings) - 1) AS i
WITH i, m, vector.similarity.cosine(e, $embeddings[i]) AS score
ORDER BY i, score DESC, m.id
WITH i, collect({m: m, score: score})[..$k] AS best
UNWIND best AS b
WITH i, b.m AS m, b.score AS score
RETURN i, m {.*} AS m, score
