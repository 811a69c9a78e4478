// The memory edges of one page of a space's memories (by id after $after, $limit of
// them), each edge listed once, with its source: every relationship from a memory to a
// memory of the same space (provenance goes to observations and is not among them).
// Params: $space, $after, $limit.
// Returns: from (the page's last memory id is the greatest), edges (list of {type, to, props}).
MATCH (a:Memory)
WHERE a.space = $space AND a.id > $after
WITH a ORDER BY a.id LIMIT $limit
OPTIONAL MATCH (a)-[r]->(b:Memory)
WHERE b.space = $space
RETURN a.id AS from, collect(CASE WHEN r IS NULL THEN null ELSE {type: type(r), to: b.id, props: properties(r)} END) AS edges
ORDER BY from
