// A page of the memories of a space in (created_at, id) order after a cursor, with
// optional filters: type, a case-insensitive substring of name or content, whether it
// holds at $now ($current true: its validity has not ended, and it is no newer version of
// a memory that still holds, a change that begins later) or not (false).
// The (space, created_at) index is read in its order from $from, and the read stops at
// the page's end: a page costs what it holds (and the memories its filters pass over),
// not what the space holds. Sorting the whole space instead, a page of a 9,500-memory
// space took 360 ms; projecting every memory before the cut, a page of one memory of a
// 100,000-memory space took 152 s (the embedding read to be sorted).
// Params: $space, $type, $q, $current, $now, $from (the first created_at to read: the
// later of since and the cursor's), $until (created_at before it), $after_at and
// $after_id (the cursor's last memory, or null: those created at $after_at are read
// after its id), $limit.
// Returns: m (no embedding), one row per memory, in order; at most $limit.
MATCH (m:Memory {space: $space})
USING INDEX m:Memory(space, created_at)
WHERE m.created_at >= $from AND m.created_at < $until
  AND ($after_at IS NULL OR m.created_at > $after_at OR m.id > $after_id)
  AND ($type IS NULL OR m.type = $type)
  AND ($q IS NULL OR toLower(m.content) CONTAINS $q OR toLower(m.name) CONTAINS $q)
  AND ($current IS NULL OR $current = ((m.valid_until IS NULL OR m.valid_until > $now)
       AND NOT EXISTS { (m)-[:SUPERSEDES]->(o:Memory) WHERE o.valid_until > $now }))
WITH m
ORDER BY m.space, m.created_at, m.id
LIMIT $limit
RETURN m {.*, embedding: null} AS m
