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
// words, in any case, any white space between them, in the speaker or the content, both
// composed: NFC). An entity that stays lists, as said, the names those messages say when
// they do not say them all: it keeps those alone (cypher.DeleteObservation). A message not naming it does not
// hold it up: an exchange glues another turn to the one that named it, and the entity
// would keep a name only forgotten messages said. An entity or episode that stays with
// nothing in its own provenance holding it up lists, as adopted, what holds it up instead
// (the observations of those events and facts, for an entity those naming it, the first
// $sources_max by seq): it derives from them in the observation's place
// (observation_delete_finish.cypher), so that forgetting them later finds it. Whether a
// memory goes does not depend on whether the others go: they may be deleted in any
// order, a batch at a time.
// Params: $space, $id, $sources_max (1 tells whether a memory goes).
// Returns: o (every property), derived (maps: id, type, goes, adopted (observation ids),
// name, aliases, content, keywords, said (null: every name, or not an entity); in no order); no
// row when the observation is not in the space.
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
CALL (o) {
  MATCH (m:Memory)-[:DERIVED_FROM]->(o)
  WHERE m.space = $space
  // An entity's names, each with the pattern that a speaker and content saying it match,
  // both composed (NFC), any white space between its words (as cypher.aboutPatterns).
  WITH o, m, [n IN CASE WHEN m:Entity THEN [m.name] + coalesce(m.aliases, []) ELSE [] END WHERE trim(n) <> '' |
              {name: n, re: '(?isu).*(?<![\\p{L}\\p{N}])' +
                reduce(re = '', w IN [w IN split(normalize(n, NFC), ' ') WHERE w <> ''] |
                       re + CASE re WHEN '' THEN '' ELSE '[\\s\\p{Z}]+' END + '\\Q' + replace(w, '\\E', '\\E\\\\E\\Q') + '\\E') +
                '(?![\\p{L}\\p{N}]).*'}] AS names
  // The names that the other messages of its provenance say.
  WITH o, m, names, [n IN names WHERE EXISTS {
    (m)-[:DERIVED_FROM]->(p:Observation)
    WHERE p <> o AND normalize(coalesce(p.speaker, '') + '\n' + coalesce(p.content, ''), NFC) =~ n.re
  } | n.name] AS said
  WITH o, m, names, said,
       CASE WHEN m:Entity THEN size(said) > 0 ELSE EXISTS { (m)-[:DERIVED_FROM]->(p:Observation) WHERE p <> o } END AS held
  CALL (o, m, names, held) {
    // Only for one nothing in its own provenance holds up: a speaker's entity, which its
    // messages name, is related to much of the space.
    UNWIND CASE WHEN held OR m:Event OR m:Fact THEN [] ELSE [m] END AS lone
    MATCH (lone)--(x:Memory)-[:DERIVED_FROM]->(p:Observation)
    WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(o) }
      AND (NOT m:Entity OR any(n IN names WHERE normalize(coalesce(p.speaker, '') + '\n' + coalesce(p.content, ''), NFC) =~ n.re))
    WITH DISTINCT p
    ORDER BY p.seq
    LIMIT $sources_max
    RETURN collect(p.id) AS adopted
  }
  // An entity that stays keeps the names a message that stays says: those of its
  // provenance, or those of the events and facts that stay related to it.
  WITH o, m, held, adopted, names, said + [n IN names WHERE NOT n.name IN said AND (held OR size(adopted) > 0) AND EXISTS {
    (m)--(x:Memory)-[:DERIVED_FROM]->(p:Observation)
    WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(o) }
      AND normalize(coalesce(p.speaker, '') + '\n' + coalesce(p.content, ''), NFC) =~ n.re
  } | n.name] AS said
  RETURN collect({id: m.id, type: m.type, adopted: adopted, name: m.name, aliases: m.aliases, content: m.content, keywords: m.keywords,
                  said: CASE WHEN size(said) < size(names) THEN said END,
                  goes: m:Event OR m:Fact OR NOT held AND size(adopted) = 0 AND (m:Entity OR NOT EXISTS {
                    (m)--(x:Memory) WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(o) } })}) AS derived
}
RETURN o {.*} AS o, derived
