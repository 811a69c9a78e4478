// Deletes one edge (found by its ends, type and id, within a space): the revert of an add.
// Params: $space, $from, $to, $type, $edge_id.
// Returns: deleted (0 or 1).
// It leaves the space's graph_version alone: it runs only in the revert's transaction,
// after edit_lock_memories.cypher moved it (one move a transaction, whose before and after
// a snapshot follows, graphcache.go).
MATCH (a:Memory {id: $from})-[r:$($type)]->(b:Memory {id: $to})
USING INDEX a:Memory(id)
WHERE a.space = $space AND b.space = $space AND r.id = $edge_id
DELETE r
RETURN count(*) AS deleted
