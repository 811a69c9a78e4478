// One page of a space's reconsolidation log (edits) for its export, by id after $after.
// Params: $space, $after, $limit. Returns: props (all properties), by id.
MATCH (e:Edit)
WHERE e.space = $space AND e.id > $after
RETURN e {.*} AS props
ORDER BY e.id
LIMIT $limit
