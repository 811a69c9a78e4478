// For each embedding of $embeddings, the $k memories of a space most similar to it, by
// an exact cosine scan of the space (exact and tenant-safe, ARCHITECTURE.md Tenancy): the
// write path's fallback for the embeddings the vector index returns too few of a large
// space's memories for (a small space is scanned in Go, cypher/vectors.go). One pass over the space for all the candidates of a
// run: each memory's embedding is read once, not once per candidate, and each memory
// found is returned once however many candidates found it.
// Params: $space, $embeddings, $k.
// Returns one row: lists (list of {i (the index in $embeddings), best (list of {id,
// score}, best first, ties by id)}), nodes (the memories of the lists, properties incl.
// embedding, each once).
MATCH (m:Memory {space: $space})
WHERE m.embedding IS NOT NULL
WITH m, m.embedding AS e
UNWIND range(0, size($embeddings) - 1) AS i
WITH i, m, vector.similarity.cosine(e, $embeddings[i]) AS score
ORDER BY i, score DESC, m.id
WITH i, collect({m: m, score: score})[..$k] AS best
WITH collect({i: i, best: [b IN best | {id: b.m.id, score: b.score}]}) AS lists, collect(best) AS bests
CALL (bests) {
  UNWIND bests AS best
  UNWIND best AS b
  WITH DISTINCT b.m AS m
  RETURN collect(m {.*}) AS nodes
}
RETURN lists, nodes
