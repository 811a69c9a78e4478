// Bulk-writes memories of one space for tests and benchmarks, bypassing construction:
// each gets :Memory and its type's label. The write path is construction/, not this.
// Moves the space's memories_version when it has one (cypher.SpaceState).
// Params: $space, $space_key (cypher.spaceKey), $nodes (maps: label, props).
// Returns: nothing.
// It moves the space's graph_version too (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (s:Space {id: $space})
  SET s.memories_version = randomUUID(), s.graph_version = randomUUID()
}
UNWIND $nodes AS n
CREATE (m:Memory)
SET m = n.props, m.space = $space, m.space_key = $space_key
SET m:$(n.label)
