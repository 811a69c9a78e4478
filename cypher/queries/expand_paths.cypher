// Paths of path_search (REALM.md §3.2): simple paths (no repeated memory) of 1..3 hops
// from one memory, in either direction, over the allowed relationship types, every edge
// at or above the suppression floor, every memory of the space. This text is the
// three-hop statement; the one- and two-hop ones are derived from it (cypher/queries_read.go:
// the continuation's quantifier {0,2} lowered, or the continuation left out), so that no
// path longer than asked is enumerated.
// Bounds on hubs: a path may start or end at a hub but not pass through one (the walk
// does not leave an intermediate memory of more than $max_via_degree memory edges, its
// degree less its provenance edges, both read from the degree store); at most $scan
// edges of the start are read, and from a start that is a hub only its $first_hops best
// first hops by edge score before temporal decay ($sim_share · sim(reasoning, v) +
// $weight_share · weight) are followed. The best $limit paths by mean weight − 0.03 per
// extra hop are returned, in that order (ties: fewer hops, then by ids, so that equal
// weights do not leave the cut to the plan), in one row with every memory on them once,
// with Neo4j's cosines ((1 + cos) / 2) of it and the reasoning and query vectors: the
// memories' embeddings are not sent.
// Params: $space, $from_id, $types (relationship types), $w_suppress, $max_via_degree,
// $scan, $first_hops, $limit, $reasoning, $query (vectors or null), $sim_share, $weight_share.
// Returns: one row: paths (maps: ids along the path, the start first; edges per hop:
// properties + type, start, end), nodes (maps: node (properties but the embedding),
// sim_r, sim_q).
MATCH (u:Memory {id: $from_id})
WHERE u.space = $space
WITH u, COUNT { (u)--() } - COUNT { (u)-[:DERIVED_FROM]-() } > $max_via_degree AS hub
CALL (u, hub) {
  MATCH (u)-[r1]-(v1:Memory)
  WHERE type(r1) IN $types AND r1.weight >= $w_suppress AND v1.space = $space AND v1.id <> $from_id
  WITH r1, v1
  LIMIT $scan
  WITH r1, v1, CASE WHEN hub THEN vector.similarity.cosine(v1.embedding, $reasoning) END AS sim_r
  WITH r1, v1, CASE WHEN NOT hub THEN 0.0
                    ELSE $sim_share * CASE WHEN sim_r IS NULL OR sim_r <= 0.5 THEN 0.0
                                           WHEN sim_r >= 1.0 THEN 1.0 ELSE 2 * sim_r - 1 END
                         + $weight_share * r1.weight END AS bound
  ORDER BY bound DESC, r1.id
  WITH collect({r: r1, v: v1}) AS firsts
  UNWIND CASE WHEN hub THEN firsts[..$first_hops] ELSE firsts END AS f
  RETURN f.r AS r1, f.v AS v1
}
// continuation {
MATCH (v1) ((a)-[r]-(b:Memory)
            WHERE type(r) IN $types AND r.weight >= $w_suppress
              AND b.space = $space AND b.id <> $from_id
              AND COUNT { (a)--() } - COUNT { (a)-[:DERIVED_FROM]-() } <= $max_via_degree){0,2} (w)
// }
WITH [u, v1] + b AS ns, [r1] + r AS rs
WHERE size(ns) = size(reduce(seen = [], n IN ns | CASE WHEN n IN seen THEN seen ELSE seen + [n] END))
WITH ns, rs, reduce(s = 0.0, x IN rs | s + x.weight) / size(rs) - 0.03 * (size(rs) - 1) AS prior
ORDER BY prior DESC, size(rs), [n IN ns | n.id], [x IN rs | x.id]
LIMIT $limit
WITH collect({ids: [n IN ns | n.id],
              edges: [x IN rs | x {.*, type: type(x), start: startNode(x).id, end: endNode(x).id}]}) AS paths,
     collect(ns) AS on_paths
CALL (on_paths) {
  UNWIND on_paths AS ns
  UNWIND ns AS n
  WITH DISTINCT n
  RETURN collect({node: n {.*, embedding: null},
                  sim_r: vector.similarity.cosine(n.embedding, $reasoning),
                  sim_q: vector.similarity.cosine(n.embedding, $query)}) AS nodes
}
RETURN paths, nodes
