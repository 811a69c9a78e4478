// Deletes one observation (cypher.DeleteObservation), once observation_delete_memories
// deleted the memories that go with it, under the same lock. The entities and episodes
// derived from it that stay lose it from their sources (their provenance edge to it goes
// with the observation); one that only the events and facts related to it held up
// (no other observation in its provenance) derives, in its place, from their
// observations, the first $sources_max by seq, so that forgetting those later finds it.
// Params: $space, $id, $sources_max.
// Returns: deleted (a count), kept (the ids of the memories that stay and derived from it).
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
CALL (o) {
  MATCH (m:Memory)-[:DERIVED_FROM]->(o)
  WHERE m.space = $space
  WITH m, o, EXISTS { (m)-[:DERIVED_FROM]->(q:Observation) WHERE q <> o } AS supported
  CALL (m, o, supported) {
    // Only for one no other observation supports: a speaker's entity, supported by
    // most, is related to much of the space.
    UNWIND CASE WHEN supported THEN [] ELSE [m] END AS lone
    MATCH (lone)--(x:Memory)-[:DERIVED_FROM]->(p:Observation)
    WHERE (x:Event OR x:Fact) AND p <> o
    WITH DISTINCT p
    ORDER BY p.seq
    LIMIT $sources_max
    RETURN collect(p) AS adopted
  }
  FOREACH (p IN adopted | MERGE (m)-[:DERIVED_FROM]->(p))
  SET m.sources = CASE WHEN m.sources IS NULL AND size(adopted) = 0 THEN null
                       ELSE ([x IN coalesce(m.sources, []) WHERE x <> $id] + [p IN adopted | p.id])[..$sources_max] END
  RETURN collect(m.id) AS kept
}
DETACH DELETE o
RETURN count(o) AS deleted, kept
