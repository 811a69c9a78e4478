// The memories of one space with the given ids (those of other spaces are not returned),
// without their embeddings: the write path takes those from the space's embeddings it
// holds in memory (cypher/vectors.go), instead of receiving 384 numbers per memory.
// Every property nodeOf reads but the embedding: a property added there is added here.
// Params: $space, $ids.
// Returns: node (the memory's properties but its embedding).
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
WHERE m.space = $space
RETURN m {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role,
          .participants, .sources, .created_at, .updated_at, .t_start, .t_end, .last_accessed_at,
          .access_count, .valid_until, .superseded_at} AS node
