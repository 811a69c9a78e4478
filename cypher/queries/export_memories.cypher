// One page of a space's memories for its export, by id after $after, each with the ids
// of the observations it is DERIVED_FROM (its provenance edges).
// Params: $space, $after, $limit. Returns: props (all properties), derived_from (ids), by id.
MATCH (m:Memory)
WHERE m.space = $space AND m.id > $after
WITH m ORDER BY m.id LIMIT $limit
RETURN m {.*} AS props,
       [(m)-[:DERIVED_FROM]->(o:Observation) WHERE o.space = $space | o.id] AS derived_from
ORDER BY m.id
