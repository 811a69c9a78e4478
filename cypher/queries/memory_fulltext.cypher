// For each query of $queries, the $k best full-text matches of a space on name, content
// and keywords. Each text is an escaped Lucene query built by the caller; user text is
// never part of the statement. One query for all the candidates of an observation.
// Params: $space, $queries (list of {i, text}), $k.
// Returns: i (the query's i), m (properties incl. embedding), score (the caller groups rows by i).
UNWIND $queries AS q
CALL (q) {
  CALL db.index.fulltext.queryNodes('memory_text', q.text) YIELD node, score
  WHERE node.space = $space
  RETURN node, score
  ORDER BY score DESC LIMIT $k
}
RETURN q.i AS i, node {.*} AS m, score
