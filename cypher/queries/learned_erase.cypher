// Erases the query's text of learned links of one space (ExpireTraces). Each keeps its
// label, weights and edits, and in place of its query the query's vector as recall
// embeds it (query_embedding, read by retrieval/consolidate.go), its query emptied (so
// that it stays a learned link to every statement that asks r.query IS NOT NULL) and
// query_erased set; its description, which quoted the query, becomes $description.
// It moves the space's graph_version first, as every write of a memory edge does, so that
// no snapshot of the space serves the text again (graphcache.go).
// Params: $space, $links (maps: from, to, type, edge_id, query (the text read), vector),
// $description.
// Returns: erased (how many links).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
UNWIND $links AS l
MATCH (a:Memory {id: l.from})-[r:$(l.type)]->(b:Memory {id: l.to})
USING INDEX a:Memory(id)
WHERE a.space = $space AND b.space = $space AND r.id = l.edge_id AND r.query = l.query
SET r.query = '', r.query_erased = true, r.description = $description, r.query_embedding = l.vector
RETURN count(r) AS erased
