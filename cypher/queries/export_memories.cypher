// One page of a space's memories for its export, by id after $after, each with the ids
// of the observations it is DERIVED_FROM (its provenance edges), and those of them it
// derives from as a repeat (marked {repeat: true}: integration_write.cypher).
// Params: $space, $after, $limit. Returns: props (all properties), derived_from (ids),
// repeats (ids), by id.
MATCH (m:Memory)
WHERE m.space = $space AND m.id > $after
WITH m ORDER BY m.id LIMIT $limit
RETURN m {.*} AS props,
       [(m)-[:DERIVED_FROM]->(o:Observation) WHERE o.space = $space | o.id] AS derived_from,
       [(m)-[:DERIVED_FROM {repeat: true}]->(o:Observation) WHERE o.space = $space | o.id] AS repeats
ORDER BY m.id
