// How many memories, of any space, carry an embedding.
// Params: none. Returns: n.
MATCH (m:Memory) WHERE m.embedding IS NOT NULL
RETURN count(m) AS n
