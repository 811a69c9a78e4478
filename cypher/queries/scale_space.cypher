// Creates the Space node of a synthetic scale-benchmark space (bench/scale.go), as the
// write path would have left it after $seq observations: embedder, dimension, summary,
// and a new graph_version (its memories and edges are written before or after); a new space
// holds no learned link (cypher/learned.go).
// Params: $space, $embedder, $dims, $seq, $summary, $now.
// Returns: nothing.
MERGE (s:Space {id: $space})
  ON CREATE SET s.created_at = $now, s.learned_links = false
SET s.embedder = $embedder, s.dims = $dims, s.seq = $seq, s.summary = $summary, s.graph_version = randomUUID()
