// The memories of a space derived from any of the observations $ids, each with those of
// them it derives from: N_recent of a run of observations (REALM.md §2 step 3).
// Params: $space, $ids. Returns: m (properties incl. embedding), from (observation ids).
MATCH (o:Observation {space: $space})
WHERE o.id IN $ids
MATCH (m:Memory {space: $space})-[:DERIVED_FROM]->(o)
RETURN m {.*} AS m, collect(o.id) AS from
ORDER BY m.id
