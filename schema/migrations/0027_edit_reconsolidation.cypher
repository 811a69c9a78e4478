// A reconsolidation's edits found by its id (edit_of_reconsolidation.cypher, the revert):
// without it the statement scanned every Edit of the database, so a revert's cost grew
// with all the edits ever logged.
CREATE RANGE INDEX edit_reconsolidation IF NOT EXISTS FOR (e:Edit) ON (e.reconsolidation_id)
