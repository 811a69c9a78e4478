// Undoes one reconsolidation's edits (RevertReconsolidation) in one statement, under the
// locks the apply takes (edit_batch.cypher): the Space node first, moving its
// graph_version (one move a transaction, whose before and after a snapshot follows,
// graphcache.go), then the memories the edits touch, in the order of $ids (sorted by the
// caller, so that every transaction locks in the same order). Each edge appears once in
// $undo, its outcome folded by the caller: deleted (the reconsolidation added it) or set to
// the weight it had before the reconsolidation's first edit of it. Then the edits are
// marked reverted.
// Params: $space, $ids (sorted memory ids), $undo (maps: from, to, type, edge_id, delete,
// weight), $edits (the edit ids), $now.
// Returns: one row: before and after (the space's graph_version before and after; null
// without a Space node).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g._edit_lock = true
  REMOVE g._edit_lock
  WITH g, g.graph_version AS before
  SET g.graph_version = randomUUID()
  RETURN before, g.graph_version AS after
}
CALL () {
  UNWIND $ids AS mid
  MATCH (m:Memory {id: mid})
  USING INDEX m:Memory(id)
  WHERE m.space = $space
  SET m._edit_lock = true
  REMOVE m._edit_lock
  RETURN count(m) AS locked
}
CALL () {
  UNWIND $undo AS u
  MATCH (a:Memory {id: u.from})-[r:$(u.type)]->(b:Memory {id: u.to})
  USING INDEX a:Memory(id)
  WHERE a.space = $space AND b.space = $space AND r.id = u.edge_id
  FOREACH (_ IN CASE WHEN u.delete THEN [] ELSE [1] END | SET r.weight = u.weight, r.updated_at = $now)
  FOREACH (_ IN CASE WHEN u.delete THEN [1] ELSE [] END | DELETE r)
  RETURN count(*) AS undone
}
CALL () {
  UNWIND $edits AS eid
  MATCH (x:Edit {id: eid})
  WHERE x.space = $space
  SET x.reverted = true, x.reverted_at = $now
  RETURN count(x) AS marked
}
RETURN before, after
