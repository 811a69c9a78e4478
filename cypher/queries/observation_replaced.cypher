// The memories a newer version of observation $id of $space may end (construction,
// realm.Observation.Replaces): its events and facts still valid (no valid_until) that no
// other observation holds up, none other in their provenance, repeats included.
// Params: $space, $id.
// Returns: one row per memory, by id: id, content.
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
MATCH (m:Memory)-[:DERIVED_FROM]->(o)
WHERE m.space = $space AND (m:Event OR m:Fact) AND m.valid_until IS NULL
  AND NOT EXISTS { (m)-[:DERIVED_FROM]->(p:Observation) WHERE p <> o }
RETURN m.id AS id, m.content AS content
ORDER BY id
