// Counts an access to every returned memory of a recall (REALM.md §1 access_count,
// last_accessed_at).
// Params: $space, $ids, $now.
// Returns: nothing.
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
WHERE m.space = $space
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = $now
