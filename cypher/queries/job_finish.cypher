// Records how a job's background run ended: status done, failed (observations failed
// for good), or still running when it left observations pending, each with the error it
// met ($pending), kept on the observation (also when Neo4j was away when it failed, and
// nothing could record it then), and what the run spent on it added to the list of its
// LLM usage (cypher.usageRecord); an attempt is not counted by it.
// Params: $id, $status, $error, $now, $pending (list of {id, error, usage: [] or [JSON
// text]}). Returns: id.
MATCH (j:Job {id: $id})
SET j.status = $status, j.error = $error, j.updated_at = $now
WITH j
CALL (j) {
  UNWIND $pending AS p
  MATCH (o:Observation {space: j.space, id: p.id})
  USING INDEX o:Observation(space, id)
  WHERE o.status = 'pending'
  SET o.error = p.error, o.usage = CASE WHEN p.usage = [] THEN o.usage ELSE coalesce(o.usage, []) + p.usage END
}
RETURN j.id AS id
