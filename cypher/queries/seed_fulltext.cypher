// Seed candidates by keywords on the full-text index (REALM.md §3.1, keywords_match).
// $lucene is built and escaped in Go from the plan's keywords; it is only ever a
// parameter. The index spans every space: $options ({limit: n} or {} for all) bounds
// the hits it returns, best first, and they are filtered by $space here. hits is the
// count it returned, so the caller can tell a truncated fetch (hits = limit) and ask
// again with {}.
// Params: $lucene, $options (the index's options map), $space, $types, $time_from,
// $time_to, $limit.
// Returns: hits (the index's hits, of all spaces; on every row), node (the memory's
// properties; null on the one row when none passes), score (Lucene's), best first.
CALL db.index.fulltext.queryNodes('memory_text', $lucene, $options) YIELD node AS m, score
WITH count(*) AS hits,
     collect(CASE
       WHEN m.space = $space
        AND (size($types) = 0 OR m.type IN $types)
        AND ($time_from IS NULL OR m.t_start IS NULL OR coalesce(m.t_end, m.t_start) >= $time_from)
        AND ($time_to IS NULL OR m.t_start IS NULL OR m.t_start <= $time_to)
       THEN {node: m, score: score}
     END) AS kept
OPTIONAL CALL (kept) {
  UNWIND kept AS hit
  RETURN hit.node AS m, hit.score AS score
  ORDER BY score DESC
  LIMIT $limit
}
RETURN hits, m {.*} AS node, score
