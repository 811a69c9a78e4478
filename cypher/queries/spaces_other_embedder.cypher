// The spaces whose memories were embedded by another embedder than $embedder/$dims.
// Params: $embedder, $dims. Returns: id, embedder, dims (at most 20 rows).
MATCH (s:Space)
WHERE s.embedder IS NOT NULL AND (s.embedder <> $embedder OR s.dims <> $dims)
RETURN s.id AS id, s.embedder AS embedder, s.dims AS dims
ORDER BY id LIMIT 20
