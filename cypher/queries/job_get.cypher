// A job with live progress counted from its observations' statuses, so progress stays
// right across crashes. $space may be '' to find the job in any space.
// Params: $space, $id. Returns: j, integrated, failed, pending, last_error, order (the
// job's observation ids, in order), results (per observation still stored, in no order:
// {id, status, added, superseded, error: what the last failed attempt met, for one not
// integrated, usage: the LLM usage of its attempts, a JSON text each}).
MATCH (j:Job {id: $id})
WHERE $space = '' OR j.space = $space
OPTIONAL MATCH (o:Observation {space: j.space}) WHERE o.id IN j.observations
WITH j, collect(o) AS os
RETURN j {.*, observations: null} AS j,
       size([o IN os WHERE o.status = 'integrated']) AS integrated,
       size([o IN os WHERE o.status = 'failed']) AS failed,
       size([o IN os WHERE o.status = 'pending']) AS pending,
       [o IN os WHERE o.error IS NOT NULL | o.error][0] AS last_error,
       j.observations AS order,
       [o IN os | {id: o.id, status: o.status, added: coalesce(o.added, []), superseded: coalesce(o.superseded, []),
                   error: CASE WHEN o.status <> 'integrated' THEN o.error END,
                   usage: coalesce(o.usage, [])}] AS results
