// Paths of path_search (REALM.md §3.2): simple paths (no repeated memory) of 1..$max_hops
// hops (three at most) from one memory, in either direction, over the allowed
// relationship types, every edge at or above the suppression floor, every memory of the
// space. A path may start or end at a hub but not pass through one: the walk does not
// leave an intermediate memory of more than $max_via_degree memory edges (its degree less
// its provenance edges, both read from the degree store). The bound is applied per hop,
// during the expansion, so a speaker's entity of thousands of edges adds its own paths
// (one per neighbour) and not the 2- and 3-hop paths through it. The best $limit by
// mean weight − 0.03 per extra hop are returned, in that order (ties: fewer hops, then by
// ids, so that equal weights do not leave the cut to the plan), in one row with every
// memory on them once (Go scores them exactly with the reasoning text; one round trip
// instead of paths, then their memories).
// Params: $space, $from_id, $types (relationship types), $w_suppress, $max_via_degree,
// $max_hops, $limit.
// Returns: one row: paths (maps: ids along the path, the start first; edges per hop:
// properties + type, start, end), nodes (the properties of the memories on them).
MATCH (u:Memory {id: $from_id})
WHERE u.space = $space
MATCH p = (u) ((a)-[r]-(b:Memory)
                WHERE type(r) IN $types AND r.weight >= $w_suppress
                  AND b.space = $space AND b.id <> $from_id
                  AND (a.id = $from_id
                       OR COUNT { (a)--() } - COUNT { (a)-[:DERIVED_FROM]-() } <= $max_via_degree)){1,3} (v)
WHERE length(p) <= $max_hops
  AND size(nodes(p)) = size(reduce(seen = [], n IN nodes(p) | CASE WHEN n IN seen THEN seen ELSE seen + [n] END))
WITH p, r AS rs, reduce(s = 0.0, x IN r | s + x.weight) / length(p) - 0.03 * (length(p) - 1) AS prior
ORDER BY prior DESC, length(p), [n IN nodes(p) | n.id], [x IN rs | x.id]
LIMIT $limit
WITH collect({ids: [n IN nodes(p) | n.id],
              edges: [x IN rs | x {.*, type: type(x), start: startNode(x).id, end: endNode(x).id}]}) AS paths,
     collect(nodes(p)) AS on_paths
CALL (on_paths) {
  UNWIND on_paths AS ns
  UNWIND ns AS n
  WITH DISTINCT n
  RETURN collect(n {.*}) AS nodes
}
RETURN paths, nodes
