// The embeddings of a space's memories, for the write path's exact similarity search in
// Go (cypher/vectors.go), with the fingerprint of the state they are of (as
// memory_run_context.cypher reads it).
// Params: $space. Returns one row: n, version (the fingerprint), ids and embeddings (the
// memories that have one, in the same order), and after: the version once they are read
// (outside the write path's lock, another version than version says a write overlapped
// the read).
OPTIONAL MATCH (s:Space {id: $space})
WITH coalesce(s.memories_version, '') AS version
MATCH (m:Memory {space: $space})
WITH count(m) AS n, version,
     collect(CASE WHEN m.embedding IS NOT NULL THEN m.id END) AS ids,
     collect(m.embedding) AS embeddings
OPTIONAL MATCH (s:Space {id: $space})
RETURN n, version, coalesce(s.memories_version, '') AS after, ids, embeddings
