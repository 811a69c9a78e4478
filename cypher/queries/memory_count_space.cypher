// How many memories a space holds; decides between the exact and the indexed similarity search.
// Params: $space. Returns: n.
MATCH (m:Memory {space: $space})
RETURN count(m) AS n
