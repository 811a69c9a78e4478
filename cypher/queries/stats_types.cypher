// Memory counts of a space by type.
// Params: $space. Returns: type, n.
MATCH (m:Memory {space: $space})
RETURN m.type AS type, count(*) AS n
