// Erases the query's text of up to $batch edits, of any space, whose trace is gone (deleted
// by a version that kept the text, or left out of an imported file), as deleting the
// trace does (trace_expire_batch.cypher): query emptied, query_erased set, query_held
// removed, the rest kept.
// Called until it erases fewer than $batch, after the learned links those edits added
// have lost the text (learned_expiring.cypher finds them through these edits). It reads
// the edits that still hold their query's text only (the index edit_query_held) and each
// trace by its id.
// Params: $batch. Returns: erased.
MATCH (x:Edit)
USING INDEX x:Edit(query_held)
WHERE x.query_held = true AND x.query <> ''
  AND NOT EXISTS {
    MATCH (t:Trace {id: x.trace_id})
    USING INDEX t:Trace(id)
    WHERE t.space = x.space
  }
WITH x LIMIT $batch
SET x.query = '', x.query_erased = true
REMOVE x.query_held
RETURN count(x) AS erased
