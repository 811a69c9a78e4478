// The header of a space's export: the (:Space) node's properties (null when the space
// has no node) and whether the space holds any memory or observation.
// Params: $space. Returns: s (a map or null), contents (a count).
OPTIONAL MATCH (s:Space {id: $space})
RETURN s {.*} AS s,
       COUNT { MATCH (m:Memory) WHERE m.space = $space } +
       COUNT { MATCH (o:Observation) WHERE o.space = $space } AS contents
