// One observation of a space.
// Params: $space, $id. Returns: o.
MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
RETURN o {.*} AS o
