// The memories that forgetting the observations $ids of a space together deletes: the
// rule of observation_derived.cypher's goes, with every observation of $ids where it
// reads the one observation (those of $ids hold nothing up). Every event and fact whose
// provenance holds one of them; every episode that no other observation in its
// provenance and no event or fact that stays (one derived from none of $ids) holds up;
// every entity that no message that stays names (its name or an alias, whole words, in
// any case, any white space between them, in the speaker or the content, both composed:
// NFC): neither the other observations in its provenance nor those of the events and
// facts that stay related to it.
// Params: $space, $ids.
// Returns: id, in id order.
MATCH (o:Observation {space: $space})
WHERE o.id IN $ids
MATCH (m:Memory)-[:DERIVED_FROM]->(o)
WHERE m.space = $space
WITH DISTINCT m
WITH m, [n IN CASE WHEN m:Entity THEN [m.name] + coalesce(m.aliases, []) ELSE [] END WHERE trim(n) <> '' |
         '(?isu).*(?<![\\p{L}\\p{N}])' +
         reduce(re = '', w IN [w IN split(normalize(n, NFC), ' ') WHERE w <> ''] |
                re + CASE re WHEN '' THEN '' ELSE '[\\s\\p{Z}]+' END + '\\Q' + replace(w, '\\E', '\\E\\\\E\\Q') + '\\E') +
         '(?![\\p{L}\\p{N}]).*'] AS names
WHERE m:Event OR m:Fact OR NOT EXISTS {
    (m)-[:DERIVED_FROM]->(p:Observation)
    WHERE NOT p.id IN $ids AND (NOT m:Entity OR any(n IN names WHERE normalize(coalesce(p.speaker, '') + '\n' + coalesce(p.content, ''), NFC) =~ n))
  } AND NOT EXISTS {
    (m)--(x:Memory)-[:DERIVED_FROM]->(p:Observation)
    WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(q:Observation) WHERE q.id IN $ids }
      AND (NOT m:Entity OR any(n IN names WHERE normalize(coalesce(p.speaker, '') + '\n' + coalesce(p.content, ''), NFC) =~ n))
  } AND (m:Entity OR NOT EXISTS {
    (m)--(x:Memory) WHERE (x:Event OR x:Fact) AND NOT EXISTS { (x)-[:DERIVED_FROM]->(q:Observation) WHERE q.id IN $ids }
  })
RETURN m.id AS id
ORDER BY id
