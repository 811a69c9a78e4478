// One memory of a space and its memory edges in both directions (provenance excluded).
// Params: $space, $id. Returns: m (no embedding), edges (list of maps from, to, type, r).
MATCH (m:Memory {id: $id, space: $space})
USING INDEX m:Memory(id)
OPTIONAL MATCH (m)-[r]-(n:Memory {space: $space})
WITH m, collect(CASE WHEN r IS NULL THEN null
                ELSE {from: startNode(r).id, to: endNode(r).id, type: type(r), r: properties(r)} END) AS edges
RETURN m {.*, embedding: null} AS m, edges
