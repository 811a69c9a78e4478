// Counts the memories of a space learned after a time (learned_at, by the range index on
// (space, learned_at)): a recall as of that time leaves them out, and, when there are none,
// runs as a recall of now does.
// Params: $space, $time.
// Returns: later.
MATCH (m:Memory)
WHERE m.space = $space AND m.learned_at > $time
RETURN count(m) AS later
