// One page of a space's retrieval traces for its export, by id after $after.
// Params: $space, $after, $limit. Returns: props (all properties), by id.
MATCH (t:Trace)
WHERE t.space = $space AND t.id > $after
RETURN t {.*} AS props
ORDER BY t.id
LIMIT $limit
