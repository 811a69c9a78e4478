// What the extractor of an observation sees (REALM.md §2 step 2): the space's running
// summary and its last $n observations before seq $before, oldest first.
// Params: $space, $before, $n. Returns: summary ('' for a new space), recent (a list of o),
// forgotten (the space's forget count: cypher.Window.Forgotten), read with the summary
// before the observations, so that a forget committed in between shows as a count the
// write finds moved.
// Ordering by o.space too (one value) lets the planner read the (space, seq) index backwards
// and stop after $n observations instead of sorting all of the space's.
OPTIONAL MATCH (s:Space {id: $space})
CALL () {
  MATCH (o:Observation {space: $space})
  WHERE o.seq < $before
  WITH o ORDER BY o.space DESC, o.seq DESC LIMIT $n
  RETURN collect(o {.*}) AS latest
}
RETURN coalesce(s.summary, '') AS summary, reverse(latest) AS recent, coalesce(s.forgotten, 0) AS forgotten
