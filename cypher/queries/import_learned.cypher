// Gives imported memories of an export made before memories kept when the space learned
// them their learned_at, as migration 0036_memory_learned_at does for stored ones: the
// earliest observed_at of the observations they derive from (written before, by
// import_provenance), for a client's correction when it was made.
// Params: $space, $ids (the memories whose export had no learned_at). Returns: set.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
USING INDEX m:Memory(id)
WHERE m.space = $space
OPTIONAL MATCH (m)-[:DERIVED_FROM]->(o:Observation)
WITH m, min(o.observed_at) AS first
SET m.learned_at = CASE WHEN m.description STARTS WITH 'corrected by the client on ' THEN m.created_at ELSE first END
RETURN count(m) AS set
