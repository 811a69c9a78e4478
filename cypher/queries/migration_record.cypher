// Records that a schema migration was applied (idempotent).
// Params: $version, $name, $now. Returns: nothing.
MERGE (m:Migration {version: $version})
ON CREATE SET m.name = $name, m.applied_at = $now
