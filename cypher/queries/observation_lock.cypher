// Locks the listed observations for the rest of the transaction, as
// observation_claim.cypher locks those it finds, so that observation_claim_lease.cypher
// after it reads their leases as last committed (see there why).
// Params: $refs (list of {space, id}). Returns: space, id (one row per observation locked).
UNWIND $refs AS ref
MATCH (o:Observation {space: ref.space, id: ref.id})
USING INDEX o:Observation(space, id)
SET o.claiming = true
REMOVE o.claiming
RETURN o.space AS space, o.id AS id
