// One page of a space's observations for its export, by id after $after.
// Params: $space, $after, $limit. Returns: props (all properties), by id.
MATCH (o:Observation)
WHERE o.space = $space AND o.id > $after
RETURN o {.*} AS props
ORDER BY o.id
LIMIT $limit
