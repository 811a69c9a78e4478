// What the extractors of a run of observations see (REALM.md §2 step 2): the space's
// running summary, and its observations from the $n before seq $first up to (not
// including) seq $last, oldest first: each observation's last ones are among them.
// Params: $space, $first, $last, $n. Returns: summary ('' for a new space), observations
// (a list of o), forgotten (as observation_context.cypher).
// Ordering by o.space too (one value) lets the planner read the (space, seq) index backwards
// and stop after $n observations instead of sorting all of the space's.
OPTIONAL MATCH (s:Space {id: $space})
CALL () {
  MATCH (o:Observation {space: $space})
  WHERE o.seq < $first
  WITH o ORDER BY o.space DESC, o.seq DESC LIMIT $n
  RETURN reverse(collect(o {.*})) AS before
}
CALL () {
  MATCH (o:Observation {space: $space})
  WHERE $first <= o.seq < $last
  WITH o ORDER BY o.seq
  RETURN collect(o {.*}) AS within
}
RETURN coalesce(s.summary, '') AS summary, before + within AS observations, coalesce(s.forgotten, 0) AS forgotten
