// Locks and reads the edges of one type from one memory to another, within a space,
// before a strengthen or weaken: the weight is read under the write lock, so the new
// weight computed from it cannot lose a concurrent update. $type is a whitelisted
// predicate's RelType.
// Params: $space, $from, $to, $type.
// Returns: edge_id, weight (one row per edge; none when no such edge).
MATCH (a:Memory {id: $from})-[r:$($type)]->(b:Memory {id: $to})
WHERE a.space = $space AND b.space = $space
SET r._edit_lock = true
REMOVE r._edit_lock
RETURN r.id AS edge_id, r.weight AS weight
