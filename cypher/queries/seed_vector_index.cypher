// Seed candidates by cosine on the vector index (REALM.md §3.1, query_match). The 5.26
// index cannot pre-filter, so it over-fetches $fetch nearest memories of every space and
// keeps this space's, of the types asked (none: any) and overlapping the time range (null
// ends are open; memories without a time are kept).
// Params: $fetch, $embedding, $space, $types, $time_from, $time_to, $limit.
// Returns: node (the memory's properties), score (Neo4j's (1 + cos) / 2), best first.
CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embedding) YIELD node AS m, score
WHERE m.space = $space
  AND (size($types) = 0 OR m.type IN $types)
  AND ($time_from IS NULL OR m.t_start IS NULL OR coalesce(m.t_end, m.t_start) >= $time_from)
  AND ($time_to IS NULL OR m.t_start IS NULL OR m.t_start <= $time_to)
RETURN m {.*} AS node, score
ORDER BY score DESC
LIMIT $limit
