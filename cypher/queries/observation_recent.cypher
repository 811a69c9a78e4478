// The last $n observations of a space before seq $before, oldest first.
// Params: $space, $before, $n. Returns: o.
// Ordering by o.space too (one value) lets the planner read the (space, seq) index backwards
// and stop after $n observations instead of sorting all of the space's.
MATCH (o:Observation {space: $space})
WHERE o.seq < $before
WITH o ORDER BY o.space DESC, o.seq DESC LIMIT $n
RETURN o {.*} AS o
ORDER BY o.seq
