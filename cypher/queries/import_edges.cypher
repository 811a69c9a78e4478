// Creates imported memory edges between memories of the space, each of a whitelisted
// predicate's relationship type (checked by the caller), with its properties.
// Params: $space, $rows (list of {from, to, type, props}). Returns: created.
UNWIND $rows AS e
MATCH (a:Memory {id: e.from})
WHERE a.space = $space
MATCH (b:Memory {id: e.to})
WHERE b.space = $space
CREATE (a)-[r:$(e.type)]->(b)
SET r = e.props
RETURN count(r) AS created
