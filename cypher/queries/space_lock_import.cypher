// Takes the write lock of an existing space for the rest of the transaction (as
// space_lock.cypher) and reads, under it, the space's import mark, for a client's write
// of the space that must not touch what an import is writing (Store.writeSpace). The
// import takes the same lock to claim the space (import_begin.cypher) and before each of
// its batches (import_renew.cypher): it cannot claim the space between this check and
// the write.
// Params: $space, $now.
// Returns: import_id, import_until (null unless an import holds the space or left it
// incomplete); no row when the space does not exist.
MATCH (s:Space {id: $space})
SET s.locked_at = $now
RETURN s.import_id AS import_id, s.import_until AS import_until
