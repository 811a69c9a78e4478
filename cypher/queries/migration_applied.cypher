// The schema migrations already applied, in order.
// Params: none. Returns: version, name (one row per applied migration).
MATCH (m:Migration)
RETURN m.version AS version, m.name AS name
ORDER BY version
