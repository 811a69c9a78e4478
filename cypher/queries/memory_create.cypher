// Creates one memory node with its type label beside :Memory and its provenance edge to
// the observation it came from. $label is checked against the four node types by the caller.
// Params: $space, $label, $props, $observation. Returns: id.
MATCH (o:Observation {space: $space, id: $observation})
CREATE (m:Memory:$($label))
SET m = $props
CREATE (m)-[:DERIVED_FROM]->(o)
RETURN m.id AS id
