// For each query of $queries, the $k best full-text matches of a space on name, content
// and keywords. Each text is an escaped Lucene query built by the caller; user text is
// never part of the statement. One query for all the candidates of an observation.
// The index spans every space: $options ({limit: n} or {} for all) bounds the hits it
// returns, best first; this space's are kept. hits is the count it returned, so the
// caller can tell a truncated fetch (hits = limit) and ask again with {}.
// Params: $space, $queries (list of {i, text}), $k, $options (the index's options map).
// Returns: i (the query's i), hits (the index's hits for it, of all spaces), m (properties
// incl. embedding; null on the one row of a query without a match here), score (the
// caller groups rows by i).
UNWIND $queries AS q
CALL (q) {
  CALL db.index.fulltext.queryNodes('memory_text', q.text, $options) YIELD node, score
  RETURN count(*) AS hits, collect(CASE WHEN node.space = $space THEN {node: node, score: score} END) AS kept
}
OPTIONAL CALL (kept) {
  UNWIND kept AS hit
  RETURN hit.node AS node, hit.score AS score
  ORDER BY score DESC, node.id LIMIT $k
}
RETURN q.i AS i, hits, node {.*} AS m, score
