// Deletes one observation (cypher.DeleteObservation), once observation_delete_memories
// deleted the memories that go with it, under the same lock. The entities and episodes
// derived from it that stay lose it from their sources (their provenance edge to it goes
// with the observation); one that nothing in its own provenance held up derives, in its
// place, from the observations observation_derived.cypher found holding it up instead
// ($adopted), so that forgetting those later finds it; one last said by it is last said
// when the latest of the others was (last_said_at). Those whose words may be its
// take the properties $rewritten gives them (cypher.DeleteObservation: an episode's,
// an entity's names).
// Params: $space, $id, $adopted (a map: memory id → the observation ids it derives from
// in its place, already the first $sources_max), $rewritten (a map: memory id → the
// properties it takes, a null removing one), $sources_max.
// Returns: deleted (a count), kept (the ids of the memories that stay and derived from it).
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
CALL (o) {
  MATCH (m:Memory)-[:DERIVED_FROM]->(o)
  WHERE m.space = $space
  CALL (m) {
    UNWIND coalesce($adopted[m.id], []) AS source
    MATCH (p:Observation {space: $space, id: source})
    MERGE (m)-[:DERIVED_FROM]->(p)
    RETURN collect(p.id) AS adopted
  }
  SET m.sources = CASE WHEN m.sources IS NULL AND size(adopted) = 0 THEN null
                       ELSE ([x IN coalesce(m.sources, []) WHERE x <> $id] + adopted)[..$sources_max] END
  // Last said when another of its messages was, if this one was its last.
  SET m.last_said_at = CASE WHEN m.last_said_at IS NULL OR m.last_said_at > o.observed_at THEN m.last_said_at
                            ELSE reduce(last = null, t IN [(m)-[:DERIVED_FROM]->(p:Observation) WHERE p <> o | p.observed_at] |
                                   CASE WHEN last IS NULL OR t > last THEN t ELSE last END) END
  SET m += coalesce($rewritten[m.id], {})
  RETURN collect(m.id) AS kept
}
DETACH DELETE o
RETURN count(o) AS deleted, kept
