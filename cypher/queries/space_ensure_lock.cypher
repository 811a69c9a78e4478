// Creates the space on first use (with its embedder and dimension) and takes its write
// lock for the rest of the transaction, so observations of one space get gap-free seqs,
// and says, under that lock, whether an import holds the space. A new space holds no learned
// link (learned_links false; cypher/learned.go).
// Params: $space, $now, $embedder, $dims.
// Returns: seq (the last seq given out), import_id, import_until (null unless an import
// runs or was interrupted).
MERGE (s:Space {id: $space})
  ON CREATE SET s.created_at = $now, s.summary = '', s.seq = 0, s.embedder = $embedder, s.dims = $dims, s.learned_links = false
SET s.locked_at = $now,
    s.embedder = coalesce(s.embedder, $embedder),
    s.dims = coalesce(s.dims, $dims)
RETURN s.seq AS seq, s.import_id AS import_id, s.import_until AS import_until
