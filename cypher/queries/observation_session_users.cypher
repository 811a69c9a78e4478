// The first $n messages of a session of a space said by its user (a person, or the user
// role), by time, whatever their seq: whom an assistant's "you" in that session names,
// when the messages just before the assistant's hold none of them (the user's turns sent
// after it, out of order).
// Params: $space, $session, $others (the chat roles that are not the user's), $n.
// Returns: o, oldest first.
// The (space, session_id, observed_at) index reads the session's messages alone, in time
// order (the ordering by o.space and o.session_id too, one value each, lets the planner
// stop after $n); the space's index alone, which the planner picks otherwise, reads all
// of the space's messages.
MATCH (o:Observation {space: $space, session_id: $session})
USING INDEX o:Observation(space, session_id, observed_at)
WHERE o.observed_at IS NOT NULL AND coalesce(o.role, 'user') = 'user' AND NOT toLower(trim(o.speaker)) IN $others
WITH o ORDER BY o.space, o.session_id, o.observed_at LIMIT $n
RETURN o {.*} AS o
