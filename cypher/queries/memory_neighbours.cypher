// The memories of one space with the given ids (those of other spaces are not returned),
// without their embeddings: the write path takes those from the space's embeddings it
// holds in memory (cypher/vectors.go), instead of receiving 384 numbers per memory.
// Every property nodeOf reads but the embedding: a property added there is added here.
// Each memory by its id (hinted): left to the statistics, the planner can read the space's
// memories instead (by the memory_space index, per id or for a join on the ids): in bench
// scale on a 1,000-memory space, 24,960 db hits per observation in batches of 100 and 4,498
// one a call, against 449 and 1,613 by id in the next run.
// Params: $space, $ids.
// Returns: node (the memory's properties but its embedding).
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space = $space
RETURN m {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role,
          .participants, .sources, .created_at, .updated_at, .t_start, .t_end, .last_accessed_at,
          .access_count, .valid_until, .superseded_at} AS node
