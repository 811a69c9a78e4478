// Marks observations integrated and releases their leases, gives the space a new
// memories_version (the integration's writes change its memories: cypher.SpaceState),
// and replaces the space's running summary unless $summary is ''. Runs inside the
// integration's transaction, so it commits with the memories they produced or not at all.
// Params: $space, $marks (list of {id, added, merged, skipped}), $now, $summary.
// Returns: n (the observations marked), version (the space's new memories_version).
UNWIND $marks AS x
MATCH (o:Observation {space: $space, id: x.id})
SET o.status = 'integrated', o.integrated_at = $now, o.updated_at = $now,
    o.added = x.added, o.merged = x.merged, o.skipped = x.skipped,
    o.lease_owner = null, o.lease_until = null, o.error = null
WITH count(o) AS n
OPTIONAL MATCH (s:Space {id: $space})
SET s.memories_version = randomUUID()
FOREACH (_ IN CASE WHEN s IS NULL OR $summary = '' THEN [] ELSE [1] END |
  SET s.summary = $summary, s.summary_updated_at = $now)
RETURN n, s.memories_version AS version
