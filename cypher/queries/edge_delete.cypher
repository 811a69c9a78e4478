// Deletes the edge of one type between an ordered pair of memories of a space.
// Params: $space, $from, $to, $type. Returns: deleted (a count).
MATCH (a:Memory {id: $from, space: $space})-[r:$($type)]->(b:Memory {id: $to, space: $space})
DELETE r
RETURN count(*) AS deleted
