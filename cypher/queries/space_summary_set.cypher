// Replaces the running conversation summary of a space.
// Params: $space, $summary, $now. Returns: id.
MATCH (s:Space {id: $space})
SET s.summary = $summary, s.summary_updated_at = $now
RETURN s.id AS id
