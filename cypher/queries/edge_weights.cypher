// Every memory edge of a space with its exact weight: for checking that reverting a run
// of reconsolidations restored the graph to the bit (the bench does).
// Params: $space, $types (the predicates' relationship types).
// Returns: from, to, type, edge_id, weight (one row per edge).
MATCH (a:Memory)-[r]->(b:Memory)
WHERE a.space = $space AND b.space = $space AND type(r) IN $types
RETURN a.id AS from, b.id AS to, type(r) AS type, r.id AS edge_id, r.weight AS weight
