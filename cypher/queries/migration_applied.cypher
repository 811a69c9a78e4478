// The versions of the schema migrations already applied.
// Params: none. Returns: version (one row per applied migration).
MATCH (m:Migration)
RETURN m.version AS version
