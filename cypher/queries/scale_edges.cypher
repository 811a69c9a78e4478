// Bulk-writes directed memory edges of a synthetic scale-benchmark space (bench/scale.go);
// the relationship type is a whitelisted predicate's (checked in Go), a symmetric one
// comes as two rows. Both ends must be memories of $space.
// Params: $space, $edges (maps: from, to, type, props).
// Returns: written (how many edges were written).
UNWIND $edges AS e
MATCH (a:Memory {id: e.from}) WHERE a.space = $space
MATCH (b:Memory {id: e.to}) WHERE b.space = $space
CREATE (a)-[r:$(e.type)]->(b)
SET r = e.props
RETURN count(r) AS written
