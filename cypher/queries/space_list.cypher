// A batch of spaces in id order after $after whose id starts with $prefix ('': every
// space), for GET /v1/spaces; the caller keeps those its key's patterns allow. $until,
// past the prefix's ids, bounds the index range read.
// Params: $prefix, $until, $after, $limit. Returns: id, created_at, embedder.
MATCH (s:Space)
WHERE s.id >= $prefix AND s.id > $after AND s.id < $until
RETURN s.id AS id, s.created_at AS created_at, s.embedder AS embedder
ORDER BY id
LIMIT $limit
