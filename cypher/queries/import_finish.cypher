// Ends an import: the space is no longer marked as being imported.
// Params: $space, $import. Returns: id (no row when the import lost the space).
MATCH (s:Space {id: $space})
WHERE s.import_id = $import
REMOVE s.import_id, s.import_until
RETURN s.id AS id
