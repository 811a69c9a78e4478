// A batch of spaces in id order after $after whose id starts with one of $prefixes ('':
// every space), for GET /v1/spaces; the caller keeps those its key's patterns allow.
// $from and $until bound the index range read: the lowest prefix, and past the highest.
// Params: $prefixes, $from, $until, $after, $limit. Returns: id, created_at, embedder.
MATCH (s:Space)
WHERE s.id >= $from AND s.id > $after AND s.id < $until AND any(p IN $prefixes WHERE s.id STARTS WITH p)
RETURN s.id AS id, s.created_at AS created_at, s.embedder AS embedder
ORDER BY id
LIMIT $limit
