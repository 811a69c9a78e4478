// Paths of path_search (REALM.md §3.2), for several starts at once (one round trip for a
// whole frontier): for each of $requests, simple paths (no repeated memory) of
// 1..max_hops hops (three at most) from its memory, in either direction, over its allowed
// relationship types, every edge at or above the suppression floor, every memory of the
// space. The walk is bounded at every memory: at most $scan of its edges are read (a
// hub's first ones in the store's order), and at most $branch of them followed: from the
// start (of a hub start, of its $hub_branch heaviest, ties by edge id: a cosine each),
// the best by edge score before temporal decay ($sim_share · sim(reasoning, v) +
// $weight_share · weight, sim clipped to [0, 1] as cos), further on the heaviest (their
// similarity is not read: it is the first hop that says where the reasoning leads). A
// path may start or end at a hub but not pass through one: it does not leave an
// intermediate memory of more than $max_via_degree memory edges (its degree less its
// provenance edges, both read from the degree store). A hop beyond $max_hops is not
// walked. Every pattern names the fifteen predicates' relationship types (the memory
// edges), so that a memory's provenance edges are not read: a speaker's entity has tens
// of thousands. The best $limit paths by mean weight − 0.03 per extra hop are returned,
// in that order (ties: fewer hops, then by ids, so that equal weights do not leave the
// cut to the plan), in one row with every memory on them once, with Neo4j's cosines
// ((1 + cos) / 2) of it and the reasoning and query vectors: the memories' embeddings are
// not sent.
// Params: $space, $requests (maps: i, from_id, types (relationship types), max_hops,
// reasoning (vector or null)), $w_suppress, $max_via_degree, $scan, $hub_branch, $branch, $limit, $query
// (vector or null), $sim_share, $weight_share.
// Returns: one row per request with a path: request (its i), paths (maps: ids along the
// path, the start first; edges per hop: properties + type, start, end), nodes (maps: node (properties but the embedding),
// sim_r, sim_q).
UNWIND $requests AS req
CALL (req) {
  MATCH (u:Memory {id: req.from_id})
  WHERE u.space = $space AND req.max_hops >= 1
  WITH req, u, COUNT { (u)--() } - COUNT { (u)-[:DERIVED_FROM]-() } > $max_via_degree AS hub
  CALL (req, u, hub) {
    CALL (req, u, hub) {
      WITH req, u WHERE NOT hub
      MATCH (u)-[r1:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v1:Memory)
      WHERE type(r1) IN req.types AND r1.weight >= $w_suppress AND v1.space = $space AND v1 <> u
      RETURN r1, v1
      UNION ALL
      WITH req, u WHERE hub
      MATCH (u)-[r1:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v1:Memory)
      WHERE type(r1) IN req.types AND r1.weight >= $w_suppress AND v1.space = $space AND v1 <> u
      WITH r1, v1
      LIMIT $scan
      WITH r1, v1
      ORDER BY r1.weight DESC, r1.id
      LIMIT $hub_branch
      RETURN r1, v1
    }
    WITH r1, v1, vector.similarity.cosine(v1.embedding, req.reasoning) AS sim_r
    WITH r1, v1, $sim_share * CASE WHEN sim_r IS NULL OR sim_r <= 0.5 THEN 0.0
                                   WHEN sim_r >= 1.0 THEN 1.0 ELSE 2 * sim_r - 1 END
                 + $weight_share * r1.weight AS bound
    ORDER BY bound DESC, r1.id
    LIMIT $branch
    RETURN r1, v1
  }
  CALL (req, u, v1) {
    RETURN [] AS more, [] AS beyond
    UNION ALL
    WITH req, u, v1
    WHERE req.max_hops >= 2 AND COUNT { (v1)--() } - COUNT { (v1)-[:DERIVED_FROM]-() } <= $max_via_degree
    CALL (req, u, v1) {
      MATCH (v1)-[r2:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v2:Memory)
      WHERE type(r2) IN req.types AND r2.weight >= $w_suppress AND v2.space = $space AND v2 <> u AND v2 <> v1
      WITH r2, v2
      LIMIT $scan
      WITH r2, v2
      ORDER BY r2.weight DESC, r2.id
      LIMIT $branch
      RETURN r2, v2
    }
    CALL (req, u, v1, r2, v2) {
      RETURN [] AS r3s, [] AS v3s
      UNION ALL
      WITH req, u, v1, v2
      WHERE req.max_hops >= 3 AND COUNT { (v2)--() } - COUNT { (v2)-[:DERIVED_FROM]-() } <= $max_via_degree
      MATCH (v2)-[r3:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v3:Memory)
      WHERE type(r3) IN req.types AND r3.weight >= $w_suppress AND v3.space = $space AND NOT v3 IN [u, v1, v2]
      WITH r3, v3
      LIMIT $scan
      WITH r3, v3
      ORDER BY r3.weight DESC, r3.id
      LIMIT $branch
      RETURN [r3] AS r3s, [v3] AS v3s
    }
    RETURN [r2] + r3s AS more, [v2] + v3s AS beyond
  }
  WITH req, [u, v1] + beyond AS ns, [r1] + more AS rs
  WITH req, ns, rs, reduce(s = 0.0, x IN rs | s + x.weight) / size(rs) - 0.03 * (size(rs) - 1) AS prior
  ORDER BY prior DESC, size(rs), [n IN ns | n.id], [x IN rs | x.id]
  LIMIT $limit
  WITH req, collect({ids: [n IN ns | n.id],
                edges: [x IN rs | x {.*, type: type(x), start: startNode(x).id, end: endNode(x).id}]}) AS paths,
       collect(ns) AS on_paths
  CALL (req, on_paths) {
    UNWIND on_paths AS ns
    UNWIND ns AS n
    WITH DISTINCT n
    RETURN collect({node: n {.*, embedding: null},
                    sim_r: vector.similarity.cosine(n.embedding, req.reasoning),
                    sim_q: vector.similarity.cosine(n.embedding, $query)}) AS nodes
  }
  RETURN paths, nodes
}
RETURN req.i AS request, paths, nodes
