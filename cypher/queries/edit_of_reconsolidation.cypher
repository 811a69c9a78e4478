// Locks and reads every logged edit of the reconsolidation that $id names (a
// reconsolidation id, or the id of one of its edits), within a space, latest first: a
// revert undoes them in that order. The lock makes two concurrent reverts of one
// reconsolidation serialize, so the second sees the first's reverted flags. Both lookups
// go through an index (edit_id, edit_reconsolidation), whatever the edits logged.
// Params: $space, $id.
// Returns: edit (the edit's properties).
CALL () {
  MATCH (e:Edit {id: $id})
  WHERE e.space = $space
  RETURN e.reconsolidation_id AS rid
  UNION
  MATCH (e:Edit {reconsolidation_id: $id})
  WHERE e.space = $space
  RETURN e.reconsolidation_id AS rid
}
MATCH (x:Edit {reconsolidation_id: rid})
USING INDEX x:Edit(reconsolidation_id)
WHERE x.space = $space
SET x._edit_lock = true
REMOVE x._edit_lock
RETURN x {.*} AS edit
ORDER BY x.seq DESC
