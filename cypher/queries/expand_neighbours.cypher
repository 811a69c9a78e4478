// One hop of expansion (REALM.md §3.2, subgraph_beam): the memories adjacent to a
// frontier, in either direction, over the allowed relationship types, across edges whose
// weight is at least the suppression floor. Scoring happens in Go.
// Params: $space, $frontier (ids), $types (relationship types), $w_suppress.
// Returns: from_id, edge (properties + type, start, end ids), node (the neighbour's properties).
UNWIND $frontier AS fid
MATCH (u:Memory {id: fid})-[r]-(v:Memory)
WHERE u.space = $space AND v.space = $space
  AND type(r) IN $types AND r.weight >= $w_suppress
RETURN fid AS from_id,
       r {.*, type: type(r), start: startNode(r).id, end: endNode(r).id} AS edge,
       v {.*} AS node
