// The subgraph a set of memories induces (REALM.md §3.3): every memory edge whose two
// ends are in the set, both of the space. The pattern names the fifteen predicates'
// relationship types, so that a memory's provenance edges are not read (a speaker's
// entity has tens of thousands: 167,400 database hits at 100,000 memories, 210 without).
// Params: $space, $ids, $types (the predicates' relationship types).
// Returns: edge (properties + type, start, end ids), in the order of $ids by start, then by id,
// so that a recall's edges come in the same order every time.
UNWIND range(0, size($ids) - 1) AS i
MATCH (a:Memory {id: $ids[i]})-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                           COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]->(b:Memory)
USING INDEX a:Memory(id)
WHERE a.space = $space AND b.space = $space AND b.id IN $ids AND type(r) IN $types
RETURN r {.*, type: type(r), start: a.id, end: b.id} AS edge
ORDER BY i, edge.id
