// Histogram of the memory edge weights of a space: $bins equal bins over [0, 1], the
// last one closed.
// Params: $space, $types (the predicates' relationship types), $bins.
// Returns: bin (0..$bins−1), edges.
MATCH (a:Memory)-[r]->(b:Memory)
WHERE a.space = $space AND b.space = $space AND type(r) IN $types
WITH CASE WHEN r.weight >= 1.0 THEN $bins - 1
          ELSE toInteger(floor(coalesce(r.weight, 0.0) * $bins)) END AS bin
RETURN bin, count(*) AS edges
ORDER BY bin
