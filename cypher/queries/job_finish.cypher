// Records how a job's background run ended: status done, failed (observations failed
// for good), or still running when it left observations pending, each with the error it
// met ($pending), kept on the observation (also when Neo4j was away when it failed, and
// nothing could record it then), and what the run spent on it added to the list of its
// LLM usage (cypher.usageRecord); an attempt is not counted by it. A job any of whose
// observations is pending stays running whatever $status says: the run left them to
// the process holding their lease, which settles the job once it has integrated them
// (job_settle.cypher).
// Params: $id, $status, $error, $now, $pending (list of {id, error, usage: [] or [JSON
// text]}). Returns: id, status (as recorded).
MATCH (j:Job {id: $id})
CALL (j) {
  UNWIND $pending AS p
  MATCH (o:Observation {space: j.space, id: p.id})
  USING INDEX o:Observation(space, id)
  WHERE o.status = 'pending'
  SET o.error = p.error, o.usage = CASE WHEN p.usage = [] THEN o.usage ELSE coalesce(o.usage, []) + p.usage END
}
OPTIONAL MATCH (o:Observation {space: j.space, status: 'pending'}) WHERE o.id IN j.observations
WITH j, count(o) > 0 AS left
SET j.status = CASE WHEN left THEN 'running' ELSE $status END, j.error = $error, j.updated_at = $now
RETURN j.id AS id, j.status AS status
