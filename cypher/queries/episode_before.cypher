// For each time of $times, the episode of a space that starts last among those that end
// before it: a new session's predecessor, found whatever the new episode's neighbourhood
// holds. The (space, t_start) index is read backwards from the time and stops after the
// first (ordering by m.space too lets the planner take the index's order).
// Params: $space, $times (list of datetimes). Returns: i (the index in $times), m
// (properties incl. embedding), one row for each time an episode ends before.
UNWIND range(0, size($times) - 1) AS i
CALL (i) {
  MATCH (m:Memory {space: $space})
  WHERE m.t_start < $times[i] AND m.type = 'episode' AND m.t_end < $times[i]
  RETURN m
  ORDER BY m.space, m.t_start DESC, m.id
  LIMIT 1
}
RETURN i, m {.*} AS m
