// Replaces the embedding of some memories of a space and nothing else of them: content,
// weights and timestamps stay as they are.
// Params: $space, $rows (maps: id, embedding). Returns: written.
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
USING INDEX m:Memory(id)
WHERE m.space = $space
SET m.embedding = row.embedding
RETURN count(m) AS written
