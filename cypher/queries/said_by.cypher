// The memories said in the sessions and times a recall's filters name
// (realm.RecallFilters): those derived from a message of one of $sessions (null: any)
// observed in [$since, $until] (null: unbounded). An episode derives from its session's
// messages, so it is said in its session. At most $limit: the caller asks for one more
// than it can use, so that a wide filter costs no more than a narrow one.
// Params: $space, $sessions, $since, $until, $limit.
// Returns: id, one row per memory.
MATCH (o:Observation {space: $space})
WHERE ($sessions IS NULL OR o.session_id IN $sessions)
  AND ($since IS NULL OR o.observed_at >= $since)
  AND ($until IS NULL OR o.observed_at <= $until)
MATCH (m:Memory)-[:DERIVED_FROM]->(o)
WHERE m.space = $space
WITH DISTINCT m.id AS id
LIMIT $limit
RETURN id
