// One observation of a space and the memories derived from it (DERIVED_FROM), each with
// whether forgetting the observation deletes it (cypher.DeleteObservation,
// observation_delete_memories.cypher): every event and fact whose provenance holds it,
// even when other observations are in it too (its content may say the message's words:
// an exchange, a merge), and every entity and episode that nothing else holds up: no
// other observation in its provenance, and no event or fact that stays (one not derived
// from the observation) related to it (a session's episode first made by the message
// still contextualizes what the session's other messages said). Whether a memory goes
// does not depend on whether the others go: they may be deleted in any order, a batch at
// a time.
// Params: $space, $id.
// Returns: o (every property), derived (maps: id, type, goes; in no order); no row when
// the observation is not in the space.
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
RETURN o {.*} AS o,
       [(m:Memory)-[:DERIVED_FROM]->(o) WHERE m.space = $space | {id: m.id, type: m.type,
        goes: m:Event OR m:Fact OR NOT (
          EXISTS { (m)-[:DERIVED_FROM]->(p:Observation) WHERE p <> o }
          OR EXISTS { (m)--(x:Memory) WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(o) } })}] AS derived
