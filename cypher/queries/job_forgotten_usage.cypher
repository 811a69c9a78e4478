// Keeps what an integration attempt spent on the LLM when its observation was forgotten
// (DeleteObservation) while the attempt ran, on the jobs of its space that hold the
// observation: the message is gone with the usage of its earlier attempts, and its jobs
// read it forgotten, with this usage (cypher.Job).
// Params: $space, $id, $usage (list of JSON texts of {id: usage}). Returns: nothing.
MATCH (j:Job)
WHERE j.space = $space AND $id IN j.observations
SET j.forgotten_usage = coalesce(j.forgotten_usage, []) + $usage
