// Deletes the edit log of a space (when the space goes, and after tests).
// Params: $space.
// Returns: nothing.
MATCH (x:Edit)
WHERE x.space = $space
DELETE x
