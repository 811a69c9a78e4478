// Records that a space's memories are embedded by $embedder with vectors of $dims,
// ending its re-embed; `realm serve` checks this record at start.
// Params: $space, $embedder, $dims. Returns: nothing.
MATCH (s:Space {id: $space})
SET s.embedder = $embedder, s.dims = $dims
