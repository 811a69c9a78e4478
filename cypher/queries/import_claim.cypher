// Marks the space as being imported by $import until $until (renewed by import_renew):
// until import_finish removes the mark, the space refuses every request but its erasure
// (cypher.Store.CheckNotImporting, writeSpace).
// Run after import_begin in the same transaction.
// Params: $space, $import, $until. Returns: nothing.
MATCH (s:Space {id: $space})
SET s.import_id = $import, s.import_until = $until
