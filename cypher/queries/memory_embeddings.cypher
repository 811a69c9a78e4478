// The embeddings of a space's memories, for the write path's exact similarity search in
// Go (cypher/vectors.go), with the fingerprint of the state they are of (as
// memory_run_context.cypher reads it), from the same pass over the space.
// Params: $space. Returns one row: n, updated, superseded (the fingerprint), ids and
// embeddings (the memories that have one, in the same order).
MATCH (m:Memory {space: $space})
RETURN count(m) AS n, sum(m.updated_at.epochMillis) AS updated, count(m.superseded_at) AS superseded,
       collect(CASE WHEN m.embedding IS NOT NULL THEN m.id END) AS ids,
       collect(m.embedding) AS embeddings
