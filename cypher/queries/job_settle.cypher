// The running jobs of $spaces none of whose observations is pending any more (their run
// was killed, or left observations pending that were integrated since), with how many
// of their observations failed for good, so that their end is recorded.
// Params: $spaces. Returns: id, total, failed (one row per job).
MATCH (j:Job)
WHERE j.space IN $spaces AND j.status = 'running'
OPTIONAL MATCH (o:Observation {space: j.space}) WHERE o.id IN j.observations
WITH j, collect(o.status) AS statuses
WHERE NOT 'pending' IN statuses
RETURN j.id AS id, j.total AS total, size([s IN statuses WHERE s = 'failed']) AS failed
