// A page of the observations of a space in the order they were said: (observed_at, seq),
// after a cursor, with optional filters: one session, one speaker, a status, an
// observed_at window.
// Each branch reads an index in its order and stops at the page's end: without a session
// the (space, observed_at) index from $from; with one the (space, session_id, observed_at)
// index, so that a session's messages are read without the rest of the space. The first
// branch runs only without a session (its guard comes before its index is read; a
// filter on $session_id after it would read the whole space for nothing).
// Params: $space, $session_id (null: every session), $speaker (null: every speaker),
// $status (null: every status),
// $from (the first observed_at to read: the later of since and the cursor's), $until
// (observed_at before it), $after_at and $after_seq (the cursor's last observation, or
// null and 0: those said at $after_at are read after its seq).
// Returns: o (every property), one row per observation, in order; at most $limit.
CALL () {
  UNWIND CASE WHEN $session_id IS NULL THEN [true] ELSE [] END AS every_session
  CALL () {
    MATCH (o:Observation {space: $space})
    WHERE o.observed_at >= $from AND o.observed_at < $until
      AND ($speaker IS NULL OR o.speaker = $speaker)
      AND ($status IS NULL OR o.status = $status)
      AND ($after_at IS NULL OR o.observed_at > $after_at OR o.seq > $after_seq)
    RETURN o
    ORDER BY o.space, o.observed_at, o.seq
    LIMIT $limit
  }
  RETURN o
  UNION ALL
  MATCH (o:Observation {space: $space, session_id: $session_id})
  WHERE o.observed_at >= $from AND o.observed_at < $until
    AND ($speaker IS NULL OR o.speaker = $speaker)
    AND ($status IS NULL OR o.status = $status)
    AND ($after_at IS NULL OR o.observed_at > $after_at OR o.seq > $after_seq)
  RETURN o
  ORDER BY o.space, o.session_id, o.observed_at, o.seq
  LIMIT $limit
}
WITH o
ORDER BY o.observed_at, o.seq
RETURN o {.*} AS o
