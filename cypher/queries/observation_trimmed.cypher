// The observations of the space, but $id, that said again what a memory of $ids held
// and were let go from its provenance, of too many repeats (their repeat_of lists it:
// integration_write.cypher), when forgetting $id deletes those memories
// (cypher.DeleteObservation): their repeat_of loses them, and the caller marks them
// pending (observation_reintegrate.cypher), so that what they say comes back once
// integrated again.
// Params: $space, $id, $ids. Returns: ids.
MATCH (p:Observation {space: $space})
WHERE p.repeat_of IS NOT NULL AND p.id <> $id AND any(x IN p.repeat_of WHERE x IN $ids)
WITH p, [x IN p.repeat_of WHERE NOT x IN $ids] AS left
SET p.repeat_of = CASE WHEN left = [] THEN null ELSE left END
RETURN collect(p.id) AS ids
