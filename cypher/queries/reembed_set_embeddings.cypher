// Replaces the embedding of some memories of a space and nothing else of them: content,
// weights and timestamps stay as they are.
// Params: $space, $rows (maps: id, embedding). Returns: written.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.space = $space
SET m.embedding = row.embedding
RETURN count(m) AS written
