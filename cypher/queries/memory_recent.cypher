// The memories derived from the last $n observations of a space before seq $before
// (N_recent, REALM.md §2 step 3).
// Params: $space, $before, $n. Returns: m (properties incl. embedding).
// Ordering by o.space too (one value) lets the planner read the (space, seq) index backwards
// and stop after $n observations instead of sorting all of the space's.
MATCH (o:Observation {space: $space})
WHERE o.seq < $before
WITH o ORDER BY o.space DESC, o.seq DESC LIMIT $n
MATCH (m:Memory {space: $space})-[:DERIVED_FROM]->(o)
RETURN DISTINCT m {.*} AS m
