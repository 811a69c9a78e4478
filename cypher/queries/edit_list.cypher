// Logged edits of a space, newest first, optionally of one trace, touching one memory,
// or since a time ('' and null select everything).
// Params: $space, $trace_id, $node_id, $since, $limit.
// Returns: edit (the edit's properties).
MATCH (x:Edit)
WHERE x.space = $space
  AND ($trace_id = '' OR x.trace_id = $trace_id)
  AND ($node_id = '' OR x.from = $node_id OR x.to = $node_id)
  AND ($since IS NULL OR x.created_at >= $since)
RETURN x {.*} AS edit
ORDER BY x.created_at DESC, x.seq DESC
LIMIT $limit
