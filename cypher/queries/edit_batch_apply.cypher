// Applies one reconsolidation's edits and logs them (REALM.md §4.4), under the locks
// edit_batch_read took in the same transaction, from which the caller computed every new
// weight: sets the weights of the strengthened and weakened edges (in order, so an edge
// edited twice ends at its last weight), adds the new edges (MERGE on the pair and type:
// one edge however many adds), and logs each edit as an (:Edit) of the space (old_weight
// null for an add).
// Params: $space, $now, $sets (maps: from, to, type, edge_id, weight), $adds (maps:
// from, to, type, edge_id, layer, description, query, label, weight, confidence; query and
// label are null except on a learned link, REALM.md §4 "ours"), $edits (the log
// rows: id, trace_id, reconsolidation_id, seq, edge_id, from, to, predicate, action,
// confidence, old_weight, new_weight, created_at, source).
// Returns: set, added, logged (how many).
CALL () {
  UNWIND $sets AS e
  MATCH (a:Memory {id: e.from})-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                                    COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]->(b:Memory {id: e.to})
  WHERE a.space = $space AND b.space = $space AND type(r) = e.type AND r.id = e.edge_id
  SET r.weight = e.weight, r.updated_at = $now
  RETURN count(r) AS set
}
CALL () {
  UNWIND $adds AS e
  MATCH (a:Memory {id: e.from})
  WHERE a.space = $space
  MATCH (b:Memory {id: e.to})
  WHERE b.space = $space
  MERGE (a)-[r:$(e.type)]->(b)
    ON CREATE SET r.id = e.edge_id, r.layer = e.layer, r.description = e.description,
                  r.query = e.query, r.label = e.label,
                  r.weight = e.weight, r.initial_weight = e.weight, r.confidence = e.confidence,
                  r.created_at = $now, r.updated_at = $now
  RETURN count(r) AS added
}
CALL () {
  UNWIND $edits AS e
  CREATE (x:Edit)
  SET x = e, x.space = $space, x.reverted = false
  RETURN count(x) AS logged
}
RETURN set, added, logged
