// One observation of a space.
// Params: $space, $id. Returns: o.
MATCH (o:Observation {space: $space, id: $id})
RETURN o {.*} AS o
