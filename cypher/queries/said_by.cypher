// The memories said in the sessions and times a recall's filters name
// (realm.RecallFilters): those derived from a message of one of $sessions (null: any)
// observed in [$since, $until] (null: unbounded). An episode derives from its session's
// messages, so it is said in its session.
// Params: $space, $sessions, $since, $until.
// Returns: id, one row per memory.
MATCH (o:Observation {space: $space})
WHERE ($sessions IS NULL OR o.session_id IN $sessions)
  AND ($since IS NULL OR o.observed_at >= $since)
  AND ($until IS NULL OR o.observed_at <= $until)
MATCH (m:Memory)-[:DERIVED_FROM]->(o)
WHERE m.space = $space
RETURN DISTINCT m.id AS id
