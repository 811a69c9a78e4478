// Counts the memories of a space and of the whole database, to choose between the
// vector index and an exact scan (REALM.md §3.1; ARCHITECTURE.md, tenancy), and reads
// the space's observation seq (-1 without a Space node): with the memory count it tells
// a reader whether what it derived from the space before (its common names) still holds.
// Also reads the space's memories_version: with the memory count, the fingerprint of its
// memories (cypher.SpaceState) that the in-memory keyword index is kept for.
// Params: $space. Returns: in_space, total, seq, version ('' when never set).
OPTIONAL MATCH (s:Space {id: $space})
RETURN COUNT { MATCH (m:Memory) WHERE m.space = $space } AS in_space,
       COUNT { MATCH (n:Memory) } AS total,
       coalesce(s.seq, -1) AS seq,
       coalesce(s.memories_version, '') AS version
