// The status of each observation of $ids in a space (null when it does not exist), read
// under the space's lock by the integration of a run of observations.
// Params: $space, $ids. Returns: id, status.
UNWIND $ids AS id
OPTIONAL MATCH (o:Observation {space: $space, id: id})
RETURN id, o.status AS status
