// Sets the weight of one edge (found by its ends, type and id, within a space); used by
// revert, under the locks of the same transaction.
// Params: $space, $from, $to, $type, $edge_id, $weight, $now.
// Returns: edge_id (no row when the edge is gone).
// It leaves the space's graph_version alone: it runs only in the revert's transaction,
// after edit_lock_memories.cypher moved it (one move a transaction, whose before and after
// a snapshot follows, graphcache.go).
MATCH (a:Memory {id: $from})-[r:$($type)]->(b:Memory {id: $to})
USING INDEX a:Memory(id)
WHERE a.space = $space AND b.space = $space AND r.id = $edge_id
SET r.weight = $weight, r.updated_at = $now
RETURN r.id AS edge_id
