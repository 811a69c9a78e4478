// The traces of a space whose query names someone (POST …/forget, cypher.Store.About):
// those whose query matches one of $patterns (aboutPatterns).
// Params: $space, $patterns.
// Returns: id, oldest first.
MATCH (t:Trace {space: $space})
WHERE any(p IN $patterns WHERE coalesce(t.query, '') =~ p)
RETURN t.id AS id
ORDER BY t.created_at, t.id
