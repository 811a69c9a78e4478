// Deletes up to $batch of the memories derived from one observation (DERIVED_FROM) that
// go with it (cypher.DeleteObservation), with their edges (DETACH DELETE also removes
// them from the vector and full-text indexes): every event and fact whose provenance
// holds it, even when other observations are in it too (its content may say the
// message's words: an exchange, a merge), and every entity and episode that nothing
// else holds up: no other observation in its provenance, and no event or fact that stays
// (one not derived from the observation) related to it (a session's episode first made
// by the message still contextualizes what the session's other messages said).
// Called under the space's lock (observation_delete_lock) until it deletes fewer than
// $batch; whether a memory goes does not depend on what an earlier batch deleted.
// Params: $space, $id, $batch.
// Returns: deleted (the ids of the memories deleted), neighbours (the ids of the
// memories they were related to but by provenance, deleted ones among them: their
// degree and edges change).
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
MATCH (m:Memory)-[:DERIVED_FROM]->(o)
WHERE m.space = $space
  AND (m:Event OR m:Fact OR NOT (
    EXISTS { (m)-[:DERIVED_FROM]->(p:Observation) WHERE p <> o }
    OR EXISTS { (m)--(x:Memory) WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(o) } }))
WITH m LIMIT $batch
WITH m, m.id AS id, [(m)-[r]-(v:Memory) WHERE type(r) <> 'DERIVED_FROM' | v.id] AS neighbours
DETACH DELETE m
RETURN collect(id) AS deleted, reduce(all = [], ns IN collect(neighbours) | all + ns) AS neighbours
