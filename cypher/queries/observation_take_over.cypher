// Leases to $owner every pending observation leased to one of the owners in $dead
// (processes the caller knows to be gone, e.g. killed on this host), all at once so that
// no other process takes part of them meanwhile.
// Params: $dead, $owner, $until. Returns: n (how many observations changed owner).
MATCH (o:Observation)
WHERE o.status = 'pending' AND o.lease_owner IN $dead
SET o.lease_owner = $owner, o.lease_until = $until
RETURN count(o) AS n
