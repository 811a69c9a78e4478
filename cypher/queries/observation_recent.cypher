// The last $n observations of a space before seq $before, oldest first.
// Params: $space, $before, $n. Returns: o.
MATCH (o:Observation {space: $space})
WHERE o.seq < $before
WITH o ORDER BY o.seq DESC LIMIT $n
RETURN o {.*} AS o
ORDER BY o.seq
