// The spaces whose memories were embedded by another embedder than $embedder/$dims,
// except those whose id starts with $unchecked when it is not empty.
// Params: $embedder, $dims, $unchecked. Returns: id, embedder, dims, ordered by id.
MATCH (s:Space)
WHERE s.embedder IS NOT NULL AND (s.embedder <> $embedder OR s.dims <> $dims)
  AND NOT ($unchecked <> '' AND s.id STARTS WITH $unchecked)
RETURN s.id AS id, s.embedder AS embedder, s.dims AS dims
ORDER BY id
