// Records that a job's background work ended: status done, or failed with an error text
// when the work stopped before every observation was handled.
// Params: $id, $status, $error, $now. Returns: id.
MATCH (j:Job {id: $id})
SET j.status = $status, j.error = $error, j.updated_at = $now
RETURN j.id AS id
