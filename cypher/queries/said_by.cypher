// The memories said in the sessions and times a recall's filters name
// (realm.RecallFilters): those derived from a message of one of $sessions (null: any)
// observed in [$since, $until] (the caller passes bounds far apart for an open end). An
// episode derives from its session's messages, so it is said in its session. The
// messages are read by index, as observation_list.cypher does: without sessions the
// (space, observed_at) index over the window, with them the (space, session_id,
// observed_at) index for each (the first branch's guard comes before its index is read),
// so that a session's messages are read without the rest of the space; then the memories
// derived from them (m without its label: with it the planner reads every memory of the
// space by the space's index), at most $limit: the caller asks for one more than it can
// use, so that a filter matching more costs no more.
// Params: $space, $sessions, $since, $until, $limit.
// Returns: id, one row per memory.
CALL () {
  UNWIND CASE WHEN $sessions IS NULL THEN [true] ELSE [] END AS every_session
  MATCH (o:Observation {space: $space})
  USING INDEX o:Observation(space, observed_at)
  WHERE o.observed_at >= $since AND o.observed_at <= $until
  RETURN o
  UNION ALL
  UNWIND coalesce($sessions, []) AS session
  MATCH (o:Observation {space: $space, session_id: session})
  USING INDEX o:Observation(space, session_id, observed_at)
  WHERE o.observed_at >= $since AND o.observed_at <= $until
  RETURN o
}
MATCH (o)<-[:DERIVED_FROM]-(m)
WHERE m.space = $space
WITH DISTINCT m.id AS id
LIMIT $limit
RETURN id
