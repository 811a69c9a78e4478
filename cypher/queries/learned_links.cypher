// The learned links (REALM.md §4 "ours": edges reconsolidation added because their end
// was key evidence or misleading for a query, carrying that query) touching a set of
// memories of the space, in either direction, each once, with the memory they lead to.
// The pattern names the fifteen predicates' relationship types, so that a memory's
// provenance edges are not read (a speaker's entity has tens of thousands).
// Params: $space, $ids, $types (the predicates' relationship types).
// Returns: edge (properties + type, start, end ids), node (the end memory's properties).
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                             COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(o:Memory)
USING INDEX m:Memory(id)
WHERE m.space = $space AND o.space = $space AND type(r) IN $types AND r.query IS NOT NULL
WITH DISTINCT r
MATCH (a:Memory)-[r]->(b:Memory)
RETURN r {.*, type: type(r), start: a.id, end: b.id} AS edge, b {.*} AS node
ORDER BY edge.id
