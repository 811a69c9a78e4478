// Marks an observation integrated and releases its lease. Runs inside the integration's
// transaction, so it commits with the memories it produced or not at all.
// Params: $space, $id, $now, $added, $merged, $skipped. Returns: id.
MATCH (o:Observation {space: $space, id: $id})
SET o.status = 'integrated', o.integrated_at = $now, o.updated_at = $now,
    o.added = $added, o.merged = $merged, o.skipped = $skipped,
    o.lease_owner = null, o.lease_until = null, o.error = null
RETURN o.id AS id
