// Seed candidates by an exact cosine scan of one space's memories (REALM.md §3.1,
// query_match), used when the space is small or a small share of the database, where
// the index would need a large over-fetch. Same filters as seed_vector_index.
// Params: $space, $embedding, $types, $time_from, $time_to, $limit.
// Returns: node (the memory's properties), score (Neo4j's (1 + cos) / 2), best first.
MATCH (m:Memory)
WHERE m.space = $space AND m.embedding IS NOT NULL
  AND (size($types) = 0 OR m.type IN $types)
  AND ($time_from IS NULL OR m.t_start IS NULL OR coalesce(m.t_end, m.t_start) >= $time_from)
  AND ($time_to IS NULL OR m.t_start IS NULL OR m.t_start <= $time_to)
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC
LIMIT $limit
RETURN m {.*} AS node, score
