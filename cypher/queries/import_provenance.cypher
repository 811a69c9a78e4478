// Links imported memories to the observations they derive from (DERIVED_FROM), marked
// {repeat: true} where the memory derives from it as a repeat (integration_write.cypher).
// Params: $space, $rows (list of {memory, observation, repeat}). Returns: created.
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
UNWIND $rows AS x
MATCH (m:Memory {id: x.memory})
USING INDEX m:Memory(id)
WHERE m.space = $space
MATCH (o:Observation {space: $space, id: x.observation})
USING INDEX o:Observation(space, id)
CREATE (m)-[d:DERIVED_FROM]->(o)
SET d.repeat = CASE WHEN x.repeat THEN true END
RETURN count(*) AS created
