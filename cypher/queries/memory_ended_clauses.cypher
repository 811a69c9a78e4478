// The clauses of memories that still hold whose validity has ended, and which the query is
// at least as close to as to the memory that comprises them (REALM.md §2 "Ours"): a
// change superseded the clause, not the whole turn, which holds for what else it says but
// not for a question about what the clause said. Cosines are Neo4j's ((1 + cos) / 2).
// Params: $space, $ids, $as_of, $query (vector).
// Returns: whole_id, clause_id.
UNWIND $ids AS id
MATCH (w:Memory {id: id})-[:COMPRISES]->(c:Memory)
USING INDEX w:Memory(id)
WHERE w.space = $space AND c.space = $space AND c.valid_until IS NOT NULL AND c.valid_until <= $as_of
  AND vector.similarity.cosine(c.embedding, $query) >= vector.similarity.cosine(w.embedding, $query)
RETURN id AS whole_id, c.id AS clause_id
ORDER BY whole_id, clause_id
