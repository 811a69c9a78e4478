// Bulk-writes memory edges of one space for tests and benchmarks; the relationship type
// is a whitelisted predicate's (checked in Go). Both ends must be of $space.
// Params: $space, $edges (maps: from, to, type, props).
// Returns: written (how many edges were written).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again),
// and marks the space as holding learned links when an edge carries a query (cypher/learned.go).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID(),
      g.learned_links = CASE WHEN any(e IN $edges WHERE e.props.query IS NOT NULL) THEN true ELSE g.learned_links END
}
UNWIND $edges AS e
MATCH (a:Memory {id: e.from}) USING INDEX a:Memory(id) WHERE a.space = $space
MATCH (b:Memory {id: e.to}) USING INDEX b:Memory(id) WHERE b.space = $space
CREATE (a)-[r:$(e.type)]->(b)
SET r = e.props
RETURN count(r) AS written
