// Leases to $owner those of the observations observation_claim.cypher (or, to renew
// leases, observation_lock.cypher) locked in this transaction that are still pending and
// free, expired or $owner's: processes claiming side by side (each resumes pending work
// periodically) both match a free observation, and the later would lease it again over
// the earlier's lease; under the lock, this statement
// reads what the earlier one committed, and leaves such an observation alone. The
// integration itself also re-checks, under the space lock, that it is still pending.
// Params: $refs (list of {space, id}), $now, $owner, $until.
// Returns: o (one row per leased observation, ordered by space, then seq).
UNWIND $refs AS ref
MATCH (o:Observation {space: ref.space, id: ref.id})
USING INDEX o:Observation(space, id)
WHERE o.status = 'pending' AND (o.lease_until IS NULL OR o.lease_until < $now OR o.lease_owner = $owner)
SET o.lease_owner = $owner, o.lease_until = $until
WITH o ORDER BY o.space, o.seq
RETURN o {.*} AS o
