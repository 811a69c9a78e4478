// Creates imported memories: each gets :Memory and its type's label (checked against the
// four node types by the caller) and its properties (space included).
// Params: $space, $rows (list of {label, props}). Returns: created.
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
UNWIND $rows AS x
CREATE (m:Memory:$(x.label))
SET m = x.props
RETURN count(m) AS created
