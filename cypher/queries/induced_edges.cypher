// The subgraph a set of memories induces (REALM.md §3.3): every memory edge whose two
// ends are in the set, both of the space.
// Params: $space, $ids, $types (the predicates' relationship types).
// Returns: edge (properties + type, start, end ids).
UNWIND $ids AS mid
MATCH (a:Memory {id: mid})-[r]->(b:Memory)
WHERE a.space = $space AND b.space = $space AND b.id IN $ids AND type(r) IN $types
RETURN r {.*, type: type(r), start: a.id, end: b.id} AS edge
