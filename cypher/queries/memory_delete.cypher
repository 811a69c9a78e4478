// Deletes one memory of a space with its edges and provenance (DETACH DELETE also
// removes it from the vector and full-text indexes). Observations stay.
// Params: $space, $id. Returns: deleted (a count).
MATCH (m:Memory {id: $id, space: $space})
DETACH DELETE m
RETURN count(*) AS deleted
