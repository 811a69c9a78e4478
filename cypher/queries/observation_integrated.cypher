// Marks observations integrated and releases their leases, and replaces the space's
// running summary unless $summary is ''. Runs inside the integration's transaction, so
// it commits with the memories they produced or not at all.
// Returns also the fingerprint of the space's memories the integration leaves (as
// memory_run_context.cypher reads it), which the write path's embeddings cache holds
// (cypher/vectors.go).
// Params: $space, $marks (list of {id, added, merged, skipped}), $now, $summary.
// Returns: n (the observations marked), memories, updated, superseded (the fingerprint).
UNWIND $marks AS x
MATCH (o:Observation {space: $space, id: x.id})
SET o.status = 'integrated', o.integrated_at = $now, o.updated_at = $now,
    o.added = x.added, o.merged = x.merged, o.skipped = x.skipped,
    o.lease_owner = null, o.lease_until = null, o.error = null
WITH count(o) AS n
OPTIONAL MATCH (s:Space {id: $space}) WHERE $summary <> ''
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END |
  SET s.summary = $summary, s.summary_updated_at = $now)
WITH n
CALL () {
  MATCH (m:Memory {space: $space})
  RETURN count(m) AS memories, sum(m.updated_at.epochMillis) AS updated, count(m.superseded_at) AS superseded
}
RETURN n, memories, updated, superseded
