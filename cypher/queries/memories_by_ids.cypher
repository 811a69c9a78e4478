// The memories of one space with the given ids (those of other spaces are not returned).
// Params: $space, $ids.
// Returns: node (the memory's properties).
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
WHERE m.space = $space
RETURN m {.*} AS node
