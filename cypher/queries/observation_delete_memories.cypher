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
// A memory one of them superseded holds again, as memory_delete.cypher restores it: its
// valid_until and superseded_at are cleared, or valid_until is set from what still
// supersedes it (a later batch that deletes that sets it again).
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
WITH collect(m) AS batch
UNWIND batch AS m
WITH m, m.id AS id, [(m)-[r]-(v:Memory) WHERE type(r) <> 'DERIVED_FROM' | v.id] AS neighbours,
     [(m)-[:SUPERSEDES]->(w:Memory) WHERE NOT w IN batch | w] AS superseded
DETACH DELETE m
WITH collect(id) AS deleted, reduce(all = [], ns IN collect(neighbours) | all + ns) AS neighbours,
     reduce(all = [], ws IN collect(superseded) | all + ws) AS superseded
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
RETURN deleted, neighbours
