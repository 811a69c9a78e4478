// Ends an import: the space is no longer marked as being imported, and gets a new
// memories_version (cypher.SpaceState): the one the file gave it may be the version of
// other memories of the same count that a reader still holds.
// Params: $space, $import. Returns: id (no row when the import lost the space).
MATCH (s:Space {id: $space})
WHERE s.import_id = $import
REMOVE s.import_id, s.import_until
SET s.memories_version = randomUUID()
RETURN s.id AS id
