// Counts the memories of a space and of the whole database, to choose between the
// vector index and an exact scan (REALM.md §3.1; ARCHITECTURE.md, tenancy), and reads
// the space's observation seq (-1 without a Space node): with the memory count it tells
// a reader whether what it derived from the space before (its common names) still holds.
// It also reads the space's graph_version ('' without one), which every write to its memories
// or memory edges moves (cypher/graphcache.go).
// Params: $space. Returns: in_space, total, seq, graph_version.
OPTIONAL MATCH (s:Space {id: $space})
RETURN COUNT { MATCH (m:Memory) WHERE m.space = $space } AS in_space,
       COUNT { MATCH (n:Memory) } AS total,
       coalesce(s.seq, -1) AS seq,
       coalesce(s.graph_version, '') AS graph_version
