// Edge counts of a space by relationship type and weight bin (bin i holds weights in
// [i/10, (i+1)/10), 1.0 in bin 9): the histogram is counted here, so that a space's
// statistics return a row per type and bin rather than a bin per edge (99,436 at 9,509
// memories), and each edge's weight is read once.
// Params: $space. Returns: type, bin, n.
MATCH (a:Memory {space: $space})-[r]->(:Memory {space: $space})
WITH type(r) AS type, r.weight AS weight
WITH type, CASE WHEN weight >= 1.0 THEN 9 WHEN weight < 0 THEN 0
                ELSE toInteger(floor(weight * 10)) END AS bin
RETURN type, bin, count(*) AS n
