// Creates the memory nodes observations add, each with its type label beside :Memory and
// its provenance edge to the observation that adds it. Each label is checked against the
// four node types by the caller. One statement for a whole run of observations.
// Params: $space, $nodes (list of {observation, label, props}). Returns: id (one row per
// node whose observation is in the space).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
UNWIND $nodes AS n
MATCH (o:Observation {space: $space, id: n.observation})
CREATE (m:Memory:$(n.label))
SET m = n.props
CREATE (m)-[:DERIVED_FROM]->(o)
RETURN m.id AS id
