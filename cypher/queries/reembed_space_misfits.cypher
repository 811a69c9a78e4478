// How many memories of a space have no embedding of dimension $dims.
// Params: $space, $dims. Returns: n.
MATCH (m:Memory {space: $space})
WHERE m.embedding IS NULL OR size(m.embedding) <> $dims
RETURN count(m) AS n
