// Links imported memories to the observations they derive from (DERIVED_FROM).
// Params: $space, $rows (list of {memory, observation}). Returns: created.
UNWIND $rows AS x
MATCH (m:Memory {id: x.memory})
WHERE m.space = $space
MATCH (o:Observation {space: $space, id: x.observation})
CREATE (m)-[:DERIVED_FROM]->(o)
RETURN count(*) AS created
