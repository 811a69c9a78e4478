// Finds the traces older than the retention (REALM_TRACE_RETENTION) without reading every
// Trace of the database: the sweep deletes them in batches (trace_expire_batch.cypher), and
// a trace read is refused past its retention (trace_get.cypher).
CREATE RANGE INDEX trace_created_at IF NOT EXISTS FOR (t:Trace) ON (t.created_at)
