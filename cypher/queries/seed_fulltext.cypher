// Seed candidates by keywords on the full-text index (REALM.md §3.1, keywords_match).
// $lucene is built and escaped in Go from the plan's keywords; it is only ever a
// parameter. The index spans every space, so hits are filtered by $space here.
// Params: $lucene, $space, $types, $time_from, $time_to, $limit.
// Returns: node (the memory's properties), score (Lucene's), best first.
CALL db.index.fulltext.queryNodes('memory_text', $lucene) YIELD node AS m, score
WHERE m.space = $space
  AND (size($types) = 0 OR m.type IN $types)
  AND ($time_from IS NULL OR m.t_start IS NULL OR coalesce(m.t_end, m.t_start) >= $time_from)
  AND ($time_to IS NULL OR m.t_start IS NULL OR m.t_start <= $time_to)
RETURN m {.*} AS node, score
ORDER BY score DESC
LIMIT $limit
