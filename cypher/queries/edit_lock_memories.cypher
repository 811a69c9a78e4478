// Takes the write locks of the memories an edit batch touches, for the rest of the
// transaction, so that concurrent reconsolidations of overlapping subgraphs serialize
// (no lost update, no duplicate add). The caller passes the ids sorted, so every
// transaction locks in the same order and deadlocks stay rare (the driver retries them).
// Setting and removing a property takes the lock without changing the node.
// It locks the Space node first, moving its graph_version (the revert that takes these locks
// then writes edges, edit_edge_*.cypher, which leave it as moved here), in the order the
// write path locks: the space, then its memories.
// Params: $space, $ids (sorted memory ids).
// Returns: locked (how many memories of the space were found), before and after (the
// space's graph_version before and after, read under the Space node's lock; null without
// a Space node).
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
RETURN locked, before, after
