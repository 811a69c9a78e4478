// Marks logged edits of a space as reverted.
// Params: $space, $ids (edit ids), $now.
// Returns: marked (how many).
UNWIND $ids AS eid
MATCH (x:Edit {id: eid})
WHERE x.space = $space
SET x.reverted = true, x.reverted_at = $now
RETURN count(x) AS marked
