// Ends the leases $owner holds on pending observations: a process shutting down hands
// its unfinished work back, so that any process may take it at once instead of when the
// leases expire.
// Params: $owner. Returns: n (how many leases ended).
MATCH (o:Observation)
WHERE o.status = 'pending' AND o.lease_owner = $owner
SET o.lease_owner = null, o.lease_until = null
RETURN count(o) AS n
