// Deletes one edge (found by its ends, type and id, within a space): the revert of an add.
// Params: $space, $from, $to, $type, $edge_id.
// Returns: deleted (0 or 1).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
MATCH (a:Memory {id: $from})-[r:$($type)]->(b:Memory {id: $to})
USING INDEX a:Memory(id)
WHERE a.space = $space AND b.space = $space AND r.id = $edge_id
DELETE r
RETURN count(*) AS deleted
