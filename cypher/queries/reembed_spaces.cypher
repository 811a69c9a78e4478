// Every space `realm reembed` may re-embed, with the embedder recorded for it: the space
// nodes, and the spaces of memories written without one (test fixtures), which record none.
// Params: none. Returns: id, embedder, dims (null when not recorded), ordered by id.
CALL () {
  MATCH (s:Space)
  RETURN s.id AS id, s.embedder AS embedder, s.dims AS dims
  UNION
  MATCH (m:Memory)
  WITH DISTINCT m.space AS id
  WHERE NOT EXISTS { MATCH (:Space {id: id}) }
  RETURN id, null AS embedder, null AS dims
}
RETURN id, embedder, dims
ORDER BY id
