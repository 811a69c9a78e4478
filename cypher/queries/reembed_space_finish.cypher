// Records that a space's memories are embedded by $embedder with vectors of $dims,
// ending its re-embed; `realm serve` checks this record at start. The learned links of
// the space whose query's text was erased lose the query's vector (learned_erase.cypher):
// it is the former embedder's, and without the text it cannot be embedded again.
// Params: $space, $embedder, $dims. Returns: nothing.
CALL () {
  MATCH (a:Memory)-[r]->(:Memory)
  WHERE a.space = $space AND r.query_erased
  REMOVE r.query_embedding
}
MATCH (s:Space {id: $space})
SET s.embedder = $embedder, s.dims = $dims
