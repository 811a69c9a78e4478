// The learned links whose query's text the retention's sweep erases next (ExpireTraces):
// those added by an edit logged from a trace created before $cutoff, their query still
// held; at most $batch, called until fewer come back (an erased link no longer matches).
// A link's query is its add's trace's query (edit_batch.cypher), so it goes with that trace.
// Params: $cutoff, $batch.
// Returns: space, from, to, type, edge_id, query.
MATCH (t:Trace)
WHERE t.created_at < $cutoff
MATCH (x:Edit {trace_id: t.id})
WHERE x.space = t.space AND x.action = 'add' AND x.label IS NOT NULL
MATCH (a:Memory {id: x.from})-[r]->(b:Memory {id: x.to})
USING INDEX a:Memory(id)
WHERE a.space = x.space AND b.space = x.space AND r.id = x.edge_id AND r.query <> ''
RETURN x.space AS space, a.id AS from, b.id AS to, type(r) AS type, r.id AS edge_id, r.query AS query
LIMIT $batch
