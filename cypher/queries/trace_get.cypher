// One trace of a space by id.
// Params: $space, $id.
// Returns: json.
MATCH (t:Trace {id: $id})
WHERE t.space = $space
RETURN t.json AS json
