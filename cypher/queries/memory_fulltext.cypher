// The $k best full-text matches of a space on name, content and keywords. $text is an
// escaped Lucene query built by the caller; user text is never part of the statement.
// Params: $space, $text, $k. Returns: m (properties incl. embedding), score.
CALL db.index.fulltext.queryNodes('memory_text', $text) YIELD node, score
WHERE node.space = $space
RETURN node {.*} AS m, score
ORDER BY score DESC LIMIT $k
