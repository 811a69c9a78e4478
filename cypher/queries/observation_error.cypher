// Records a failed integration attempt: the observation stays pending (to be retried)
// until $max_attempts attempts failed, then it is failed; the error text is kept either
// way, and the attempt's LLM usage ($usage: [] or [its JSON text]) added to the list of
// the observation's, in the same write (a job reads it failed only with it).
// An attempt that does not count ($counts false: the database or a model was away) keeps
// the error and not the attempt. The lease stays with the process that attempted it: it
// retries the observation itself (on the extraction it made, when it got that far), and
// another process takes it up only once that lease has expired or been handed back, never
// while the first may still be working on it.
// Params: $space, $id, $error, $now, $max_attempts, $counts, $usage. Returns: status, attempts.
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
WHERE o.status = 'pending'
SET o.attempts = coalesce(o.attempts, 0) + CASE WHEN $counts THEN 1 ELSE 0 END, o.error = $error, o.updated_at = $now,
    o.usage = CASE WHEN $usage = [] THEN o.usage ELSE coalesce(o.usage, []) + $usage END
SET o.status = CASE WHEN o.attempts >= $max_attempts THEN 'failed' ELSE 'pending' END
RETURN o.status AS status, o.attempts AS attempts
