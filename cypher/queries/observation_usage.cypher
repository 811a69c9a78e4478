// Adds what an integration attempt spent on the LLM to the list of its observation's
// attempts' usage (JobResult.Usage) when the attempt wrote nothing because another
// integrated (or failed) the observation meanwhile (already_integrated): its job then
// counts every call made for it.
// Params: $space, $id, $usage (list of JSON texts, cypher.usageRecord). Returns: nothing.
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
SET o.usage = coalesce(o.usage, []) + $usage
