// Marks an observation integrated and releases its lease, and replaces the space's
// running summary unless $summary is ''. Runs inside the integration's transaction, so
// it commits with the memories it produced or not at all.
// Params: $space, $id, $now, $added, $merged, $skipped, $summary. Returns: id.
MATCH (o:Observation {space: $space, id: $id})
SET o.status = 'integrated', o.integrated_at = $now, o.updated_at = $now,
    o.added = $added, o.merged = $merged, o.skipped = $skipped,
    o.lease_owner = null, o.lease_until = null, o.error = null
WITH o
OPTIONAL MATCH (s:Space {id: $space}) WHERE $summary <> ''
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END |
  SET s.summary = $summary, s.summary_updated_at = $now)
RETURN o.id AS id
