// The episodes a new memory is linked to, found whatever its neighbourhood holds:
// - for each time of $times, the episode of a space that starts last among those that end
//   before it (a new session's predecessor, precedes). The (space, t_start) index is read
//   backwards from the time and stops after the first (ordering by m.space too lets the
//   planner take the index's order);
// - for each name of $names, the space's episode of that name (a session's episode, which
//   contextualizes what is said in it), the earliest if there are several, by the
//   (space, name) index.
// Params: $space, $times (list of datetimes), $names (list of strings).
// Returns: kind ('before' or 'named'), i (the index in $times or $names), m (properties
// incl. embedding), one row for each time an episode ends before and each name found.
CALL () {
  UNWIND range(0, size($times) - 1) AS i
  CALL (i) {
    MATCH (m:Memory {space: $space})
    WHERE m.t_start < $times[i] AND m.type = 'episode' AND m.t_end < $times[i]
    RETURN m
    ORDER BY m.space, m.t_start DESC, m.id
    LIMIT 1
  }
  RETURN 'before' AS kind, i, m
  UNION ALL
  UNWIND range(0, size($names) - 1) AS i
  CALL (i) {
    MATCH (m:Memory {space: $space, name: $names[i]})
    WHERE m.type = 'episode'
    RETURN m
    ORDER BY m.t_start, m.id
    LIMIT 1
  }
  RETURN 'named' AS kind, i, m
}
RETURN kind, i, m {.*} AS m
