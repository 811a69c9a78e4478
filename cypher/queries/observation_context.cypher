// What the extractor of an observation sees (REALM.md §2 step 2): the space's running
// summary and its last $n observations before seq $before, oldest first.
// Params: $space, $before, $n. Returns: summary ('' for a new space), recent (a list of o).
OPTIONAL MATCH (s:Space {id: $space})
CALL () {
  MATCH (o:Observation {space: $space})
  WHERE o.seq < $before
  WITH o ORDER BY o.seq DESC LIMIT $n
  RETURN collect(o {.*}) AS latest
}
RETURN coalesce(s.summary, '') AS summary, reverse(latest) AS recent
