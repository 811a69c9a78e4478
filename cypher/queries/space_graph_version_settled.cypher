// Reads a space's graph_version under the space's write lock (cypher.settledGraphVersion):
// every write that moved the version held the lock until Neo4j had applied it whole, the
// index entries of its memories included, so counts read after this statement miss none
// of what the version says was written (statsmemo.go). No lock without a Space node.
// Params: $space, $now.
// Returns: graph_version ('' without a Space node or a version).
OPTIONAL MATCH (s:Space {id: $space})
SET s.locked_at = $now
RETURN coalesce(s.graph_version, '') AS graph_version
