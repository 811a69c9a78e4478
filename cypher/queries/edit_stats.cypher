// Counts the logged edits of a space by action and reverted flag.
// Params: $space.
// Returns: action, reverted, edits (one row per action and flag).
MATCH (x:Edit)
WHERE x.space = $space
RETURN x.action AS action, x.reverted AS reverted, count(*) AS edits
