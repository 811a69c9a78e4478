// Stores the trace of one recall (REALM.md §3.3); the whole trace is the JSON document.
// Params: $id, $space, $created_at, $query, $json.
// Returns: nothing.
CREATE (:Trace {id: $id, space: $space, created_at: $created_at, query: $query, json: $json})
