// The ids of a space's memories, which `realm reembed` walks in batches.
// Params: $space. Returns: id, ordered by id.
MATCH (m:Memory {space: $space})
RETURN m.id AS id
ORDER BY id
