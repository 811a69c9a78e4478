// The owners holding unexpired leases on pending observations, so that the caller can
// tell which of them are dead processes whose work it may take over at once.
// Params: $now. Returns: owner (one row per owner).
MATCH (o:Observation)
WHERE o.status = 'pending' AND o.lease_until >= $now
RETURN DISTINCT o.lease_owner AS owner
