// Deletes a batch of the memories derived from one observation that go with it
// (observation_derived.cypher says which: cypher.DeleteObservation), with their edges
// (DETACH DELETE also removes them from the vector and full-text indexes). Called under
// the space's lock (observation_delete_lock), a batch of $ids at a time.
// A memory one of them superseded holds again, as memory_delete.cypher restores it: its
// valid_until and superseded_at are cleared, or valid_until is set from what still
// supersedes it (a later batch that deletes that sets it again).
// Params: $space, $ids.
// Returns: deleted (the ids of the memories deleted), neighbours (the ids of the
// memories they were related to but by provenance, deleted ones among them: their
// degree and edges change), sources (the ids of the observations they derived from, the
// one forgotten among them: those that stay are integrated again,
// observation_reintegrate.cypher), let_go (the ids of the observations they let go from
// their provenance, of too many repeats, by their edge REPEAT_OF: observation_trimmed.cypher).
UNWIND $ids AS id
MATCH (m:Memory {space: $space, id: id})
WITH collect(m) AS batch
UNWIND batch AS m
WITH m, m.id AS id, [(m)-[r]-(v:Memory) WHERE type(r) <> 'DERIVED_FROM' | v.id] AS neighbours,
     [(m)-[:SUPERSEDES]->(w:Memory) WHERE NOT w IN batch | w] AS superseded,
     [(m)-[:DERIVED_FROM]->(p:Observation) | p.id] AS sources,
     [(m)<-[:REPEAT_OF]-(p:Observation) | p.id] AS let_go
DETACH DELETE m
WITH collect(id) AS deleted, reduce(all = [], ns IN collect(neighbours) | all + ns) AS neighbours,
     reduce(all = [], ws IN collect(superseded) | all + ws) AS superseded,
     reduce(all = [], ps IN collect(sources) | all + ps) AS sources,
     reduce(all = [], ps IN collect(let_go) | all + ps) AS let_go
CALL (superseded) {
  UNWIND superseded AS w
  WITH DISTINCT w
  WITH w, [(x:Memory)-[:SUPERSEDES]->(w) WHERE x <> w |
           CASE WHEN x.t_start IS NOT NULL AND (w.t_start IS NULL OR x.t_start > w.t_start) THEN x.t_start ELSE x.created_at END] AS starts
  WITH w, reduce(first = null, t IN starts | CASE WHEN first IS NULL OR t < first THEN t ELSE first END) AS end
  SET w.valid_until = end,
      w.superseded_at = CASE WHEN end IS NULL THEN null ELSE w.superseded_at END
  RETURN count(w) AS restored
}
RETURN deleted, neighbours, sources, let_go
