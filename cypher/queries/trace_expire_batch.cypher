// Deletes up to $batch traces, of any space, created before $cutoff (the retention's
// sweep); called until it deletes fewer than $batch, so one sweep never holds a large
// transaction. The edits logged from a trace lose its query's text with it (query
// emptied, query_erased set, query_held removed) and keep the rest: its id, their weights, so that they stay
// revertible. Nothing else refers to the Trace node. The learned links those edits added
// lose the text before (learned_erase.cypher).
// Params: $cutoff, $batch. Returns: deleted.
MATCH (t:Trace)
WHERE t.created_at < $cutoff
WITH t LIMIT $batch
CALL (t) {
  MATCH (x:Edit {trace_id: t.id})
  WHERE x.space = t.space AND x.query <> ''
  SET x.query = '', x.query_erased = true
  REMOVE x.query_held
}
DETACH DELETE t
RETURN count(*) AS deleted
