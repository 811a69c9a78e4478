// Marks the edits that still hold their query's text (query_held, which edit_batch.cypher
// and the import set since, and the retention's sweep removes with the text): the sweep
// finds them by the index of 0040 instead of reading every Edit of the database on each
// run (learned_expiring.cypher, edit_erase_orphaned.cypher). This marks the edits written
// before, in batches. Idempotent: only edits without the marker are set.
MATCH (x:Edit) WHERE x.query_held IS NULL AND x.query <> ''
CALL (x) {
  SET x.query_held = true
} IN TRANSACTIONS OF 10000 ROWS
