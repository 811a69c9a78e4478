// The memories of one space with the given ids (those of other spaces are not returned),
// for the write path: with their embeddings only when $embeddings (else it takes them
// from the space's embeddings it holds in memory, cypher/vectors.go, instead of receiving
// 384 numbers per memory), and with their sources only when they derive from at most
// $inline_sources observations: a speaker's entity derives from most observations of a
// space (thousands of ids), and the write path decides on names, texts and embeddings
// (construction keeps a memory read without its sources without them).
// Every property nodeOf reads: a property added there is added here.
// Each memory by its id (hinted): left to the statistics, the planner can read the space's
// memories instead (by the memory_space index, per id or for a join on the ids): in bench
// scale on a 1,000-memory space, 24,960 db hits per observation in batches of 100 and 4,498
// one a call, against 449 and 1,613 by id in the next run.
// Params: $space, $ids, $embeddings (bool), $inline_sources.
// Returns: node (the memory's properties).
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space = $space
RETURN m {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role,
          .participants, sources: CASE WHEN COUNT { (m)-[:DERIVED_FROM]->() } <= $inline_sources THEN m.sources END,
          .created_at, .updated_at, .t_start, .t_end, .last_accessed_at, .access_count, .valid_until, .superseded_at, .learned_at, .last_said_at,
          embedding: CASE WHEN $embeddings THEN m.embedding END} AS node
