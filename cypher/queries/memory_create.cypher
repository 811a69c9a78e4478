// Creates the memory nodes an observation adds, each with its type label beside :Memory
// and its provenance edge to the observation. Each label is checked against the four node
// types by the caller.
// Params: $space, $observation, $nodes (list of {label, props}). Returns: id (one row per node).
MATCH (o:Observation {space: $space, id: $observation})
UNWIND $nodes AS n
CREATE (m:Memory:$(n.label))
SET m = n.props
CREATE (m)-[:DERIVED_FROM]->(o)
RETURN m.id AS id
