// The traces of a space whose query names someone (POST …/forget, cypher.Store.About):
// those whose query, composed (NFC), matches one of $patterns (aboutPatterns).
// Params: $space, $patterns.
// Returns: id, oldest first.
MATCH (t:Trace {space: $space})
WITH t, normalize(coalesce(t.query, ''), NFC) AS query
WHERE any(p IN $patterns WHERE query =~ p)
RETURN t.id AS id
ORDER BY t.created_at, t.id
