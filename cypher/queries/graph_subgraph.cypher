// The memories with these ids in a space and the memory edges among them.
// Params: $space, $ids. Returns: nodes (list of maps, no embedding), edges (list of maps from, to, type, r).
MATCH (n:Memory {space: $space}) WHERE n.id IN $ids
WITH collect(n) AS ns
UNWIND ns AS a
OPTIONAL MATCH (a)-[r]->(b:Memory) WHERE b IN ns
WITH ns, collect(CASE WHEN r IS NULL THEN null
                 ELSE {from: a.id, to: b.id, type: type(r), r: properties(r)} END) AS edges
RETURN [n IN ns | n {.*, embedding: null}] AS nodes, edges
