// The import mark of a space: set while an import runs, and left by one that was
// interrupted until the next import into the space or its erasure.
// Params: $space. Returns: import_id, import_until (no row when the space has no node).
MATCH (s:Space {id: $space})
RETURN s.import_id AS import_id, s.import_until AS import_until
