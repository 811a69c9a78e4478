// The names and aliases of the space's entities that occur in at least $share of its
// observations and in at least $min of them: the participants of a conversation, named in
// most memories, whose names cannot tell memories apart (retrieval leaves them out of the
// query it embeds). The observations are counted once, not per entity; an entity's are its
// sources, or its provenance edges when it lists $sources_max (realm.SourcesMax, the most
// ingestion lists) and has more.
// Params: $space, $share (0–1), $min, $sources_max. Returns: name, aliases.
CALL () {
  MATCH (o:Observation) WHERE o.space = $space
  RETURN count(o) AS observations
}
MATCH (m:Memory:Entity)
WHERE m.space = $space
WITH m, observations, size(m.sources) AS listed
WITH m, observations, CASE WHEN listed < $sources_max THEN listed ELSE COUNT { (m)-[:DERIVED_FROM]->() } END AS linked, listed
WITH m, observations, CASE WHEN linked > listed THEN linked ELSE listed END AS derived
WHERE derived >= $min AND derived >= $share * observations
RETURN m.name AS name, coalesce(m.aliases, []) AS aliases
