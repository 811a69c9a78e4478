// One trace of a space by id, whatever its age: the caller refuses one created before
// the retention's bound, which waits for the sweep (trace_expire_batch.cypher), and says
// why, which it can say only of a trace it found.
// Params: $space, $id.
// Returns: json, created_at.
MATCH (t:Trace {id: $id})
WHERE t.space = $space
RETURN t.json AS json, t.created_at AS created_at
