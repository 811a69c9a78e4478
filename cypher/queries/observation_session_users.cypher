// The first $n messages of a session of a space said by its user (a person, or the user
// role), by time, whatever their seq: whom an assistant's "you" in that session names,
// when the messages just before the assistant's hold none of them (the user's turns sent
// after it, out of order).
// Params: $space, $session, $others (the chat roles that are not the user's), $n.
// Returns: o, oldest first.
// Ordering by o.space and o.session_id too (one value each) lets the planner read the
// (space, session_id, observed_at) index in order and stop after $n messages.
MATCH (o:Observation {space: $space, session_id: $session})
WHERE coalesce(o.role, 'user') = 'user' AND NOT toLower(trim(o.speaker)) IN $others
WITH o ORDER BY o.space, o.session_id, o.observed_at LIMIT $n
RETURN o {.*} AS o
