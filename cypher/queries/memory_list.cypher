// A page of the memories of a space in (created_at, id) order after a cursor, with
// optional filters: type, created_at window, a case-insensitive substring of name or content,
// whether its validity holds at $now ($current true) or has ended (false).
// Params: $space, $type, $since, $until, $q, $current, $now, $after_at, $after_id, $limit.
// Returns: m (no embedding), one row per memory.
// The page is cut before the memories' properties are read: projected first, a page of one
// memory of a 100,000-memory space took 152 s (every memory's properties, the embedding
// among them, read to be sorted; recall's emptiness check reads such a page).
MATCH (m:Memory {space: $space})
WHERE ($type IS NULL OR m.type = $type)
  AND ($since IS NULL OR m.created_at >= $since)
  AND ($until IS NULL OR m.created_at < $until)
  AND ($q IS NULL OR toLower(m.content) CONTAINS $q OR toLower(m.name) CONTAINS $q)
  AND ($current IS NULL OR $current = (m.valid_until IS NULL OR m.valid_until > $now))
  AND ($after_at IS NULL OR m.created_at > $after_at OR (m.created_at = $after_at AND m.id > $after_id))
WITH m
ORDER BY m.created_at, m.id
LIMIT $limit
RETURN m {.*, embedding: null} AS m
