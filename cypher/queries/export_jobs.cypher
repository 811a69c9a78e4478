// One page of a space's ingestion jobs for its export, by id after $after.
// Params: $space, $after, $limit. Returns: props (all properties), by id.
MATCH (j:Job)
WHERE j.space = $space AND j.id > $after
RETURN j {.*} AS props
ORDER BY j.id
LIMIT $limit
