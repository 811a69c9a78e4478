// Counts the reconsolidations of a space that logged at least one edit.
// Params: $space.
// Returns: reconsolidations.
MATCH (x:Edit)
WHERE x.space = $space
RETURN count(DISTINCT x.reconsolidation_id) AS reconsolidations
