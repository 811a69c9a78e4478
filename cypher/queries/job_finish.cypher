// Records how a job's background run ended: status done, failed (observations failed
// for good), or still running when it left observations pending, each with the error it
// met ($pending), kept on the observation (also when Neo4j was away when it failed, and
// nothing could record it then); an attempt is not counted by it. $usage, the run's LLM
// usage by observation id as JSON text, replaces the job's unless null.
// Params: $id, $status, $error, $usage, $now, $pending (list of {id, error}). Returns: id.
MATCH (j:Job {id: $id})
SET j.status = $status, j.error = $error, j.usage = coalesce($usage, j.usage), j.updated_at = $now
WITH j
CALL (j) {
  UNWIND $pending AS p
  MATCH (o:Observation {space: j.space, id: p.id})
  USING INDEX o:Observation(space, id)
  WHERE o.status = 'pending'
  SET o.error = p.error
}
RETURN j.id AS id
