// One trace of a space by id, unless it was created before $kept_since (the retention's
// bound, null to keep every trace): a trace past its retention is not served while it
// waits for the sweep (trace_expire_batch.cypher).
// Params: $space, $id, $kept_since.
// Returns: json.
MATCH (t:Trace {id: $id})
WHERE t.space = $space AND ($kept_since IS NULL OR t.created_at >= $kept_since)
RETURN t.json AS json
