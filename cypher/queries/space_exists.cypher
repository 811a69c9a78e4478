// Whether a space exists: it has its (:Space) node or holds a memory or an observation
// (as an export's header counts it); each EXISTS stops at the first node it finds.
// Params: $space. Returns: exists.
RETURN EXISTS { MATCH (s:Space {id: $space}) } OR
       EXISTS { MATCH (m:Memory) WHERE m.space = $space } OR
       EXISTS { MATCH (o:Observation) WHERE o.space = $space } AS exists
