// The spaces, other than those in $except, holding embeddings whose dimension is not $dims:
// a vector index of dimension $dims would silently leave those memories out.
// Params: $dims, $except. Returns: space, n (memories), ordered by space.
MATCH (m:Memory)
WHERE m.embedding IS NOT NULL AND size(m.embedding) <> $dims AND NOT m.space IN $except
RETURN m.space AS space, count(m) AS n
ORDER BY space
