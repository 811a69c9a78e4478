// The learned links whose query's text the retention's sweep erases next (ExpireTraces):
// those added by an edit whose trace is older than $cutoff or gone already (deleted by a
// version that kept the text, or left out of an imported file), their query still held;
// at most $batch, called until fewer come back (an erased link no longer matches).
// A link's query is its add's trace's query (edit_batch.cypher), so it goes with that
// trace. The add's edit keeps the text until the link has lost it (edit_erase_orphaned,
// trace_expire_batch), so a link holding it is found through an edit holding it.
// It reads the edits that still hold their query's text only (the index edit_query_held;
// an erased one has lost its marker), each trace by its id and each link from its edit: the
// subquery keeps the planner from walking every memory edge.
// Params: $cutoff, $batch.
// Returns: space, from, to, type, edge_id, query.
MATCH (x:Edit)
USING INDEX x:Edit(query_held)
WHERE x.query_held = true AND x.action = 'add' AND x.label IS NOT NULL AND x.query <> ''
  AND NOT EXISTS {
    MATCH (t:Trace {id: x.trace_id})
    USING INDEX t:Trace(id)
    WHERE t.space = x.space AND t.created_at >= $cutoff
  }
CALL (x) {
  MATCH (a:Memory {id: x.from})-[r]->(b:Memory {id: x.to})
  USING INDEX a:Memory(id)
  WHERE a.space = x.space AND b.space = x.space AND r.id = x.edge_id AND r.query <> ''
  RETURN a, r, b
}
RETURN x.space AS space, a.id AS from, b.id AS to, type(r) AS type, r.id AS edge_id, r.query AS query
LIMIT $batch
