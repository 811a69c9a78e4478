// The observations $let_go of the space, but $id, that said again what a memory of $ids
// held and were let go from its provenance, of too many repeats (their repeat_of lists
// it, and an edge REPEAT_OF links them to it: integration_write.cypher), when forgetting
// $id deletes those memories (cypher.DeleteObservation, which read them by those edges:
// observation_delete_memories.cypher): their repeat_of loses them, and the caller marks
// them pending (observation_reintegrate.cypher), so that what they say comes back once
// integrated again. Each is read by its id, not by reading the space's observations.
// Params: $space, $id, $ids, $let_go. Returns: ids.
UNWIND $let_go AS pid
WITH DISTINCT pid WHERE pid <> $id
MATCH (p:Observation {space: $space, id: pid})
USING INDEX p:Observation(space, id)
WITH p, [x IN coalesce(p.repeat_of, []) WHERE NOT x IN $ids] AS left
SET p.repeat_of = CASE WHEN left = [] THEN null ELSE left END
RETURN collect(p.id) AS ids
