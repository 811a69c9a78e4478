// A page of the logged edits of a space, newest first: (created_at, seq, id) descending,
// after a cursor, optionally of one trace, touching one memory, or since a time ('' and
// null select everything).
// Params: $space, $trace_id, $node_id, $since, $after_at, $after_seq and $after_id (the
// cursor's last edit, or null, 0 and '': those logged at $after_at are read after its
// seq, then its id), $limit.
// Returns: edit (the edit's properties).
MATCH (x:Edit)
WHERE x.space = $space
  AND ($trace_id = '' OR x.trace_id = $trace_id)
  AND ($node_id = '' OR x.from = $node_id OR x.to = $node_id)
  AND ($since IS NULL OR x.created_at >= $since)
  AND ($after_at IS NULL OR x.created_at < $after_at
       OR (x.created_at = $after_at AND (x.seq < $after_seq OR (x.seq = $after_seq AND x.id < $after_id))))
RETURN x {.*} AS edit
ORDER BY x.created_at DESC, x.seq DESC, x.id DESC
LIMIT $limit
