// Which of $ids are memories said in the sessions and times a recall's filters name, as
// said_by.cypher: derived from a message of one of $sessions (null: any) observed in
// [$since, $until]. Each memory by its id (hinted), then its messages.
// Params: $space, $ids, $sessions, $since, $until.
// Returns: id, one row per memory said so.
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space = $space
  AND EXISTS {
    MATCH (m)-[:DERIVED_FROM]->(o:Observation)
    WHERE ($sessions IS NULL OR o.session_id IN $sessions)
      AND o.observed_at >= $since AND o.observed_at <= $until
  }
RETURN DISTINCT m.id AS id
