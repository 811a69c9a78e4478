// Seed candidates among given memories (cypher.SeedQuery.Among), by exact cosine with
// the query: the best of them whatever the space's size. Same filters as
// seed_vector_exact. Each memory by its id (hinted), not by the space's memories.
// Params: $space, $among, $embedding, $types, $time_from, $time_to, $limit.
// Returns: node (the memory's properties), score (Neo4j's (1 + cos) / 2), best first.
UNWIND $among AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space = $space AND m.embedding IS NOT NULL
  AND (size($types) = 0 OR m.type IN $types)
  AND ($time_from IS NULL OR m.t_start IS NULL OR coalesce(m.t_end, m.t_start) >= $time_from)
  AND ($time_to IS NULL OR m.t_start IS NULL OR m.t_start <= $time_to)
WITH DISTINCT m
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, m.id
LIMIT $limit
RETURN m {.*} AS node, score
