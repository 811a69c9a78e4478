// When the space learned each memory (learned_at: a recall as of an earlier time leaves it
// out), which the writes set since: the earliest observed_at of the observations it
// derives from; for a client's correction (its description says so; it derives from the
// observations of the memory it corrects) when it was made. This fills it for the
// memories written before, in batches. A memory with no timed source keeps none: it stays
// known at any time. Idempotent: only memories without it are set.
MATCH (m:Memory) WHERE m.learned_at IS NULL
CALL (m) {
  OPTIONAL MATCH (m)-[:DERIVED_FROM]->(o:Observation)
  WITH m, min(o.observed_at) AS first
  SET m.learned_at = CASE WHEN m.description STARTS WITH 'corrected by the client on ' THEN m.created_at ELSE first END
} IN TRANSACTIONS OF 1000 ROWS
