// Logs the applied edits of one reconsolidation as (:Edit) nodes of the space
// (REALM.md §4.4); old_weight is null for an add.
// Params: $space, $edits (maps: id, trace_id, reconsolidation_id, seq, edge_id, from, to,
// predicate, action, confidence, old_weight, new_weight, created_at, source).
// Returns: logged (how many).
UNWIND $edits AS e
CREATE (x:Edit)
SET x = e, x.space = $space, x.reverted = false
RETURN count(x) AS logged
