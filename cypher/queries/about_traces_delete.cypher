// Deletes the traces $ids of a space (POST …/forget) as the retention's sweep deletes an
// expired one (trace_expire_batch.cypher): the edits logged from a trace lose its query's
// text with it (query emptied, query_erased set, query_held removed) and keep the rest,
// revertible; the learned links those edits added lose the text before
// (about_trace_links.cypher, learned_erase.cypher).
// Params: $space, $ids.
// Returns: deleted.
MATCH (t:Trace)
WHERE t.id IN $ids AND t.space = $space
CALL (t) {
  MATCH (x:Edit {trace_id: t.id})
  WHERE x.space = t.space AND x.query <> ''
  SET x.query = '', x.query_erased = true
  REMOVE x.query_held
}
DETACH DELETE t
RETURN count(*) AS deleted
