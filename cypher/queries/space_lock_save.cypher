// Takes the write lock of an existing space for a save (as space_ensure_lock does, in
// one statement instead of space_lock then space_ensure_lock): MATCH, then SET, so no
// MERGE waits for the node's lock while holding the index entry's. No row when the space
// does not exist, also when its node was deleted while this statement waited for its lock
// (as space_lock.cypher): the caller then creates it with space_ensure_lock, and the save
// stores nothing into the space erased.
// Params: $space, $now, $embedder, $dims.
// Returns: seq, import_id, import_until (as space_ensure_lock).
MATCH (s:Space {id: $space})
SET s.locked_at = $now,
    s.embedder = coalesce(s.embedder, $embedder),
    s.dims = coalesce(s.dims, $dims)
WITH s
WHERE EXISTS { MATCH (:Space {id: $space}) }
RETURN s.seq AS seq, s.import_id AS import_id, s.import_until AS import_until
