// Ends an import: the space is no longer marked as being imported.
// It moves the space's graph_version (what the import wrote is then read again).
// Params: $space, $import. Returns: id (no row when the import lost the space).
MATCH (s:Space {id: $space})
WHERE s.import_id = $import
REMOVE s.import_id, s.import_until
SET s.graph_version = randomUUID()
RETURN s.id AS id
