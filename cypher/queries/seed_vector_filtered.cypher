// Seed candidates by cosine on the vector index filtered by space inside the index
// (Neo4j 2026.x; REALM.md §3.1, query_match): the $fetch nearest memories of this space
// only, then the types asked (none: any) and the time range (null ends are open;
// memories without a time are kept), which the index cannot filter.
// Params: $fetch, $embedding, $space, $types, $time_from, $time_to, $limit.
// Returns: node (the memory's properties), score (Neo4j's (1 + cos) / 2), best first.
CYPHER 25
MATCH (m:Memory)
  SEARCH m IN (VECTOR INDEX memory_embedding FOR $embedding WHERE m.space = $space LIMIT $fetch) SCORE AS score
WITH m, score
WHERE (size($types) = 0 OR m.type IN $types)
  AND ($time_from IS NULL OR m.t_start IS NULL OR coalesce(m.t_end, m.t_start) >= $time_from)
  AND ($time_to IS NULL OR m.t_start IS NULL OR m.t_start <= $time_to)
RETURN m {.*} AS node, score
ORDER BY score DESC
LIMIT $limit
