// Deletes the edge of one type between an ordered pair of memories of a space.
// Params: $space, $from, $to, $type. Returns: deleted (a count).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
MATCH (a:Memory {id: $from, space: $space})-[r:$($type)]->(b:Memory {id: $to, space: $space})
DELETE r
RETURN count(*) AS deleted
