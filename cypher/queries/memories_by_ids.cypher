// The memories of one space with the given ids (those of other spaces are not returned).
// Each memory by its id (hinted), not by the space's memories (memory_neighbours.cypher).
// Params: $space, $ids.
// Returns: node (the memory's properties).
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space = $space
RETURN m {.*} AS node
