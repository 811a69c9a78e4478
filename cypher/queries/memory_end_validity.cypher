// Ends the validity of superseded memories (REALM.md §2 "Ours", bi-temporal): valid_until
// is when the newer version began to hold, superseded_at when the space learned it. An end
// already recorded is never moved later, and the first superseded_at is kept.
// Params: $space, $ends (list of {id, valid_until}), $now.
// Returns: id (one row per memory of the space).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
UNWIND $ends AS e
MATCH (m:Memory {id: e.id, space: $space})
SET m.valid_until = CASE WHEN m.valid_until IS NULL OR e.valid_until < m.valid_until THEN e.valid_until ELSE m.valid_until END,
    m.superseded_at = coalesce(m.superseded_at, $now)
RETURN m.id AS id
