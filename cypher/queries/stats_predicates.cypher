// Edge counts of a space by relationship type, with a 10-bin weight histogram per type
// (bin i holds weights in [i/10, (i+1)/10), 1.0 in bin 9).
// Params: $space. Returns: type, n, bins (list of bin indexes, one per edge).
MATCH (a:Memory {space: $space})-[r]->(:Memory {space: $space})
WITH type(r) AS type, CASE WHEN r.weight >= 1.0 THEN 9 WHEN r.weight < 0 THEN 0
                          ELSE toInteger(floor(r.weight * 10)) END AS bin
RETURN type, count(*) AS n, collect(bin) AS bins
