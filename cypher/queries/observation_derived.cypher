// One observation of a space and the memories derived from it (DERIVED_FROM), each with
// whether forgetting the observation deletes it (cypher.DeleteObservation,
// observation_delete_memories.cypher): every event and fact whose provenance holds it,
// even when other observations are in it too (its content may say the message's words:
// an exchange, a merge); every episode that nothing else holds up: no other observation
// in its provenance, and no event or fact that stays (one not derived from the
// observation) related to it (a session's episode first made by the message still
// contextualizes what the session's other messages said); and every entity that no
// message that stays names: neither the other observations in its provenance nor those of
// the events and facts that stay related to it say its name or one of its aliases (whole
// words, in any case, in the speaker or the content). A message not naming it does not
// hold it up: an exchange glues another turn to the one that named it, and the entity
// would keep a name only forgotten messages said. An entity or episode that stays with
// nothing in its own provenance holding it up lists, as adopted, what holds it up instead
// (the observations of those events and facts, for an entity those naming it, the first
// $sources_max by seq): it derives from them in the observation's place
// (observation_delete_finish.cypher), so that forgetting them later finds it. Whether a
// memory goes does not depend on whether the others go: they may be deleted in any
// order, a batch at a time.
// Params: $space, $id, $sources_max (1 tells whether a memory goes).
// Returns: o (every property), derived (maps: id, type, goes, adopted (observation ids);
// in no order); no row when the observation is not in the space.
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
CALL (o) {
  MATCH (m:Memory)-[:DERIVED_FROM]->(o)
  WHERE m.space = $space
  // An entity's names, each as a pattern that a speaker and content saying it match.
  WITH o, m, [n IN CASE WHEN m:Entity THEN [m.name] + coalesce(m.aliases, []) ELSE [] END WHERE trim(n) <> '' |
              '(?isu).*(?<![\\p{L}\\p{N}])\\Q' + replace(n, '\\E', '\\E\\\\E\\Q') + '\\E(?![\\p{L}\\p{N}]).*'] AS names
  WITH o, m, names, EXISTS {
    (m)-[:DERIVED_FROM]->(p:Observation)
    WHERE p <> o AND (NOT m:Entity OR any(n IN names WHERE coalesce(p.speaker, '') + '\n' + coalesce(p.content, '') =~ n))
  } AS held
  CALL (o, m, names, held) {
    // Only for one nothing in its own provenance holds up: a speaker's entity, which its
    // messages name, is related to much of the space.
    UNWIND CASE WHEN held OR m:Event OR m:Fact THEN [] ELSE [m] END AS lone
    MATCH (lone)--(x:Memory)-[:DERIVED_FROM]->(p:Observation)
    WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(o) }
      AND (NOT m:Entity OR any(n IN names WHERE coalesce(p.speaker, '') + '\n' + coalesce(p.content, '') =~ n))
    WITH DISTINCT p
    ORDER BY p.seq
    LIMIT $sources_max
    RETURN collect(p.id) AS adopted
  }
  RETURN collect({id: m.id, type: m.type, adopted: adopted,
                  goes: m:Event OR m:Fact OR NOT held AND size(adopted) = 0 AND (m:Entity OR NOT EXISTS {
                    (m)--(x:Memory) WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(o) } })}) AS derived
}
RETURN o {.*} AS o, derived
