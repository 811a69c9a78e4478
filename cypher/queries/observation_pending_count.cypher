// Counts the pending observations of every space: the integration backlog, for /metrics.
// The range index on Observation.status answers it without a label scan.
// Params: none. Returns: n.
MATCH (o:Observation)
WHERE o.status = 'pending'
RETURN count(o) AS n
