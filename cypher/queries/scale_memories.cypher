// Bulk-writes memories of a synthetic scale-benchmark space (bench/scale.go) with their
// provenance: :Memory and the type's label (checked in Go), and a DERIVED_FROM edge to
// each observation of its sources.
// Moves the space's memories_version when it has one (cypher.SpaceState).
// Params: $space, $space_key (cypher.spaceKey), $nodes (maps: label, props, derived: the
// observation ids, the first realm.SourcesMax of them its props' sources).
// Returns: written (how many memories were written), derived (how many provenance edges).
// It moves the space's graph_version too (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (s:Space {id: $space})
  SET s.memories_version = randomUUID(), s.graph_version = randomUUID()
}
UNWIND $nodes AS n
CREATE (m:Memory)
SET m = n.props, m.space = $space, m.space_key = $space_key
SET m:$(n.label)
WITH m, n
CALL (m, n) {
  UNWIND n.derived AS sid
  MATCH (o:Observation {space: $space, id: sid})
  USING INDEX o:Observation(space, id)
  CREATE (m)-[:DERIVED_FROM]->(o)
  RETURN count(*) AS derived
}
RETURN count(m) AS written, sum(derived) AS derived
