// The embeddings of a space's memories, for the write path's exact similarity search in
// Go (cypher/vectors.go), with the fingerprint of the state they are of (as
// memory_run_context.cypher reads it).
// Params: $space. Returns a row per memory that has an embedding: n (the space's
// memories), version (the fingerprint), id, embedding, and after: the version once the
// row is read (outside the write path's lock, another version on the last row than
// version says a write overlapped the read). No row when no memory has an embedding.
// A row a memory, not one row of lists: the driver took seconds to receive a message of
// 10,000 embeddings.
OPTIONAL MATCH (s:Space {id: $space})
WITH coalesce(s.memories_version, '') AS version
MATCH (m:Memory {space: $space})
WITH version, collect(m) AS ms
UNWIND ms AS m
WITH version, size(ms) AS n, m.id AS id, m.embedding AS embedding
WHERE embedding IS NOT NULL
OPTIONAL MATCH (s:Space {id: $space})
RETURN n, version, coalesce(s.memories_version, '') AS after, id, embedding
