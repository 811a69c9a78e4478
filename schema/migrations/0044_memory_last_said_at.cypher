// When each memory was last said (last_said_at: "Front door opened" sent at 08:00 and again
// at 18:00 is one memory last said at 18:00), which ingestion writes since: the latest
// observed_at of the observations it derives from, repeats included. This fills it for
// the memories written before, in batches, so that "the latest" of a repeated event is
// its last saying for them too. A client's correction (its description says so; it
// derives from the observations of the memory it corrects, but none of them said it)
// and a memory with no timed source keep none. Idempotent: only memories without it.
MATCH (m:Memory) WHERE m.last_said_at IS NULL AND NOT coalesce(m.description, '') STARTS WITH 'corrected by '
CALL (m) {
  MATCH (m)-[:DERIVED_FROM]->(o:Observation)
  WITH m, max(o.observed_at) AS last
  SET m.last_said_at = last
} IN TRANSACTIONS OF 1000 ROWS
