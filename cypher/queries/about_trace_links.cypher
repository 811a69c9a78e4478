// The learned links added from the traces $ids of a space that still hold their query's
// text (POST …/forget): those learned_expiring.cypher finds for expired traces, found the
// same way, through the add edits of the traces that still hold it (the index
// edit_trace), each link from its edit.
// Params: $space, $ids.
// Returns: from, to, type, edge_id, query.
MATCH (x:Edit)
WHERE x.trace_id IN $ids AND x.space = $space AND x.action = 'add' AND x.label IS NOT NULL AND x.query <> ''
CALL (x) {
  MATCH (a:Memory {id: x.from})-[r]->(b:Memory {id: x.to})
  USING INDEX a:Memory(id)
  WHERE a.space = x.space AND b.space = x.space AND r.id = x.edge_id AND r.query <> ''
  RETURN a, r, b
}
RETURN a.id AS from, b.id AS to, type(r) AS type, r.id AS edge_id, r.query AS query
