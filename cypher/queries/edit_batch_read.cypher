// Reads, under write locks, what one reconsolidation's edits touch (REALM.md §4.4): the
// memories of the batch are locked first (the caller passes their ids sorted, so every
// transaction locks in the same order and deadlocks stay rare; the driver retries them),
// so that concurrent reconsolidations of overlapping subgraphs serialize (no lost update,
// no duplicate add); then every edge of each (from, to, type) of $pairs is locked and
// read, so a weight computed from it cannot lose a concurrent update. Setting and
// removing a property takes a lock without changing anything.
// Params: $space, $ids (sorted memory ids), $pairs (maps: i, from, to, type).
// Returns: found (the ids of the memories of the space among $ids), edges (maps: i (the pair's), edge_id,
// weight; none for a pair without an edge).
CALL () {
  UNWIND $ids AS mid
  MATCH (m:Memory {id: mid})
  WHERE m.space = $space
  SET m._edit_lock = true
  REMOVE m._edit_lock
  RETURN collect(m.id) AS found
}
CALL () {
  UNWIND $pairs AS p
  MATCH (a:Memory {id: p.from})-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                                    COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]->(b:Memory {id: p.to})
  WHERE a.space = $space AND b.space = $space AND type(r) = p.type
  SET r._edit_lock = true
  REMOVE r._edit_lock
  RETURN collect({i: p.i, edge_id: r.id, weight: r.weight}) AS edges
}
RETURN found, edges
