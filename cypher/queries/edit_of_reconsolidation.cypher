// Locks and reads every logged edit of the reconsolidation that $id names (a
// reconsolidation id, or the id of one of its edits), within a space, latest first: a
// revert undoes them in that order. The lock makes two concurrent reverts of one
// reconsolidation serialize, so the second sees the first's reverted flags.
// Params: $space, $id.
// Returns: edit (the edit's properties).
MATCH (e:Edit)
WHERE e.space = $space AND (e.id = $id OR e.reconsolidation_id = $id)
WITH DISTINCT e.reconsolidation_id AS rid
MATCH (x:Edit)
WHERE x.space = $space AND x.reconsolidation_id = rid
SET x._edit_lock = true
REMOVE x._edit_lock
RETURN x {.*} AS edit
ORDER BY x.seq DESC
