// Paths of path_search (REALM.md §3.2): simple paths (no repeated memory) of 1..$max_hops
// hops (three at most) from one memory, in either direction, over the allowed
// relationship types, every edge at or above the suppression floor, every memory of the
// space. The best $limit by mean weight − 0.03 per extra hop are returned, in that order,
// in one row with every memory on them once (Go scores them exactly with the reasoning
// text; one round trip instead of paths, then their memories).
// Params: $space, $from_id, $types (relationship types), $w_suppress, $max_hops, $limit.
// Returns: one row: paths (maps: ids along the path, the start first; edges per hop:
// properties + type, start, end), nodes (the properties of the memories on them).
MATCH (u:Memory {id: $from_id})
WHERE u.space = $space
MATCH p = (u)-[rs*1..3]-(v:Memory)
WHERE length(p) <= $max_hops
  AND all(r IN rs WHERE type(r) IN $types AND r.weight >= $w_suppress)
  AND all(n IN nodes(p) WHERE n.space = $space)
  AND size(nodes(p)) = size(reduce(seen = [], n IN nodes(p) | CASE WHEN n IN seen THEN seen ELSE seen + [n] END))
WITH p, rs, reduce(s = 0.0, r IN rs | s + r.weight) / length(p) - 0.03 * (length(p) - 1) AS prior
ORDER BY prior DESC
LIMIT $limit
WITH collect({ids: [n IN nodes(p) | n.id],
              edges: [r IN rs | r {.*, type: type(r), start: startNode(r).id, end: endNode(r).id}]}) AS paths,
     collect(nodes(p)) AS on_paths
CALL (on_paths) {
  UNWIND on_paths AS ns
  UNWIND ns AS n
  WITH DISTINCT n
  RETURN collect(n {.*}) AS nodes
}
RETURN paths, nodes
