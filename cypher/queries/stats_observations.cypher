// Observation counts of a space by status.
// Params: $space. Returns: status, n.
MATCH (o:Observation {space: $space})
RETURN o.status AS status, count(*) AS n
