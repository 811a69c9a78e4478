// The memories within 2 hops of one memory of a space over memory edges (paths through
// observations excluded), nearest first, at most $limit; $depth (0..2) cuts the paths.
// Params: $space, $id, $depth, $limit. Returns: ids (list).
MATCH p = (c:Memory {id: $id, space: $space})-[*0..2]-(n:Memory)
USING INDEX c:Memory(id)
WHERE length(p) <= $depth AND all(x IN nodes(p) WHERE x:Memory AND x.space = $space)
WITH n, min(length(p)) AS d
ORDER BY d, n.created_at
LIMIT $limit
RETURN collect(n.id) AS ids
