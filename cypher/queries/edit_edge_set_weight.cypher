// Sets the weight of one edge (found by its ends, type and id, within a space); used by
// strengthen, weaken and revert, under the locks of the same transaction.
// Params: $space, $from, $to, $type, $edge_id, $weight, $now.
// Returns: edge_id (no row when the edge is gone).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
MATCH (a:Memory {id: $from})-[r:$($type)]->(b:Memory {id: $to})
USING INDEX a:Memory(id)
WHERE a.space = $space AND b.space = $space AND r.id = $edge_id
SET r.weight = $weight, r.updated_at = $now
RETURN r.id AS edge_id
