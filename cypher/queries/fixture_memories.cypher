// Bulk-writes memories of one space for tests and benchmarks, bypassing construction:
// each gets :Memory and its type's label. The write path is construction/, not this.
// Moves the space's memories_version when it has one (cypher.SpaceState).
// Params: $space, $nodes (maps: label, props).
// Returns: nothing.
CALL () {
  OPTIONAL MATCH (s:Space {id: $space})
  SET s.memories_version = randomUUID()
}
UNWIND $nodes AS n
CREATE (m:Memory)
SET m = n.props, m.space = $space
SET m:$(n.label)
