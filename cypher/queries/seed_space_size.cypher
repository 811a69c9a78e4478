// Counts the memories of a space and of the whole database, to choose between the
// vector index and an exact scan (REALM.md §3.1; ARCHITECTURE.md, tenancy), and reads
// the space's observation seq (-1 without a Space node): with the memory count it tells
// a reader whether what it derived from the space before (its common names) still holds.
// Also reads the space's memories_version, which with the count is the fingerprint of its
// memories (cypher.SpaceState). Counting a space's memories reads each of them (100,000
// db hits at 100,000): when the version is $known, that of the space's keyword index
// held in memory, the count is that index's, $known_n, and nothing is counted — every
// write of a memory moves the version (cypher/keywordindex.go lists them).
// Params: $space, $known (a version, or ''), $known_n.
// It also reads the space's graph_version ('' without one), which every write to its memories
// or memory edges moves (cypher/graphcache.go).
// And whether the space may hold learned links (learned_links: true, false when it holds none,
// null when not known; cypher/learned.go), so that a recall of a space without any does not
// look for them.
// Returns: in_space, total, seq, version ('' when never set), graph_version, learned_links.
OPTIONAL MATCH (s:Space {id: $space})
WITH s, coalesce(s.memories_version, '') AS version
WITH s, version, version <> '' AND version = $known AS known
CALL (known) {
  WITH CASE WHEN known THEN null ELSE $space END AS counting
  MATCH (m:Memory) WHERE m.space = counting
  RETURN count(m) AS counted
}
RETURN CASE WHEN known THEN $known_n ELSE coalesce(counted, 0) END AS in_space,
       COUNT { MATCH (n:Memory) } AS total,
       coalesce(s.seq, -1) AS seq,
       version,
       coalesce(s.graph_version, '') AS graph_version,
       s.learned_links AS learned_links
