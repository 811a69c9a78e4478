// The running conversation summary of a space (REALM.md §1).
// Params: $space. Returns: summary (no row when the space does not exist).
MATCH (s:Space {id: $space})
RETURN coalesce(s.summary, '') AS summary
