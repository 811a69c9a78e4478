// Paths of path_search (REALM.md §3.2), for several starts at once (one round trip for a
// whole frontier): for each of $requests, simple paths (no repeated memory) of
// 1..max_hops hops (three at most) from its memory, in either direction, over its allowed
// relationship types, every edge at or above the suppression floor. The walk is bounded
// at every memory: at most $scan of its edges are read (a hub's first ones in the store's
// order), and at most $branch of them followed: from the start (of a hub start, of its
// $hub_branch heaviest, ties by edge id: a cosine each), the best by edge score before
// temporal decay ($sim_share · sim(reasoning, v) + $weight_share · weight, sim clipped to
// [0, 1] as cos), further on the heaviest (their similarity is not read: it is the first
// hop that says where the reasoning leads). A path may start or end at a hub but not pass
// through one: it does not leave an intermediate memory of more than $max_via_degree
// memory edges (its degree less its provenance edges and its repeats let go, REPEAT_OF,
// all read from the degree store).
// A hop beyond $max_hops is not walked. Every pattern names the fifteen predicates'
// relationship types (the memory edges), so that a memory's provenance edges are not
// read: a speaker's entity has tens of thousands. Only the start is checked to be a
// memory of the space: every statement that writes a memory edge joins two memories of
// one space, so every memory a walk reaches is of the start's space, and the walk reads
// no label or space of the memories it passes (two database hits an edge read).
// Each edge's weight and id and each memory's id are read once, where the walk meets
// them, and carried along: the best $limit paths by mean weight − 0.03 per extra hop are
// kept in that order (ties: fewer hops, then by ids, so that equal weights do not leave
// the cut to the plan). They are returned in one row per request: the paths (memory ids,
// the start first, and edge keys), every edge on them once, and every memory on them
// once, with Neo4j's cosines ((1 + cos) / 2) of it and the reasoning and query vectors:
// the memories' embeddings are not read back nor sent.
// Params: $space, $requests (maps: i, from_id, types (relationship types), max_hops,
// reasoning (vector or null)), $w_suppress, $max_via_degree, $scan, $hub_branch, $branch, $limit, $query
// (vector or null), $sim_share, $weight_share.
// Returns: one row per request with a path: request (its i), paths (maps: ids along the
// path, the start first; edges: the key of the edge of each hop), edges (maps: properties
// + type, start, end ids, key), nodes (maps: node (the properties nodeOf reads), sim_r, sim_q).
UNWIND $requests AS req
CALL (req) {
  MATCH (u:Memory {id: req.from_id})
  USING INDEX u:Memory(id)
  WHERE u.space = $space AND req.max_hops >= 1
  WITH req, u, COUNT { (u)--() } - COUNT { (u)-[:DERIVED_FROM|REPEAT_OF]-() } > $max_via_degree AS hub
  CALL (req, u, hub) {
    CALL (req, u, hub) {
      WITH req, u WHERE NOT hub
      MATCH (u)-[r1:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v1)
      WHERE type(r1) IN req.types AND r1.weight >= $w_suppress AND v1 <> u
      RETURN r1, v1
      UNION ALL
      WITH req, u WHERE hub
      MATCH (u)-[r1:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v1)
      WHERE type(r1) IN req.types AND r1.weight >= $w_suppress AND v1 <> u
      WITH r1, v1
      LIMIT $scan
      WITH r1, v1
      ORDER BY r1.weight DESC, r1.id
      LIMIT $hub_branch
      RETURN r1, v1
    }
    WITH r1, v1, r1.weight AS w1, r1.id AS k1, vector.similarity.cosine(v1.embedding, req.reasoning) AS sim_r
    WITH r1, v1, w1, k1, $sim_share * CASE WHEN sim_r IS NULL OR sim_r <= 0.5 THEN 0.0
                                   WHEN sim_r >= 1.0 THEN 1.0 ELSE 2 * sim_r - 1 END
                 + $weight_share * w1 AS bound
    ORDER BY bound DESC, k1
    LIMIT $branch
    RETURN r1, v1, w1, k1, v1.id AS i1
  }
  WITH req, u, collect({r: r1, v: v1, w: w1, k: k1, i: i1}) AS firsts
  CALL (req, u, firsts) {
    UNWIND firsts AS f
    RETURN [u, f.v] AS ns, [f.r] AS rs, [f.w] AS ws, [u.id, f.i] AS ids, [f.k] AS ks
    UNION ALL
    UNWIND firsts AS f
    WITH req, u, f, f.v AS v1
    WHERE req.max_hops >= 2 AND COUNT { (v1)--() } - COUNT { (v1)-[:DERIVED_FROM|REPEAT_OF]-() } <= $max_via_degree
    CALL (req, u, v1) {
      MATCH (v1)-[r2:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v2)
      WHERE type(r2) IN req.types AND r2.weight >= $w_suppress AND v2 <> u AND v2 <> v1
      WITH r2, v2
      LIMIT $scan
      WITH r2, v2, r2.weight AS w2, r2.id AS k2
      ORDER BY w2 DESC, k2
      LIMIT $branch
      RETURN r2, v2, w2, k2
    }
    WITH req, u, v2, collect({f: f, r: r2, w: w2, k: k2}) AS prefixes
    CALL (req, u, v2) {
      WITH v2
      WHERE req.max_hops >= 3 AND COUNT { (v2)--() } - COUNT { (v2)-[:DERIVED_FROM|REPEAT_OF]-() } <= $max_via_degree
      MATCH (v2)-[r3:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v3)
      WHERE type(r3) IN req.types AND r3.weight >= $w_suppress AND v3 <> u AND v3 <> v2
      WITH r3, v3
      LIMIT $scan
      WITH r3, v3, r3.weight AS w3, r3.id AS k3
      ORDER BY w3 DESC, k3
      RETURN collect({r: r3, v: v3, w: w3, k: k3, i: v3.id}) AS thirds
    }
    WITH req, u, v2, v2.id AS i2, prefixes, thirds
    UNWIND prefixes AS p
    WITH u, v2, i2, p, thirds, [x IN thirds[..$branch + 4] WHERE x.v <> p.f.v] AS head
    WITH u, v2, i2, p, CASE WHEN size(head) >= $branch THEN head[..$branch]
                            ELSE [x IN thirds WHERE x.v <> p.f.v][..$branch] END AS beyond
    UNWIND [null] + beyond AS t
    RETURN [u, p.f.v, v2] + CASE WHEN t IS NULL THEN [] ELSE [t.v] END AS ns,
           [p.f.r, p.r] + CASE WHEN t IS NULL THEN [] ELSE [t.r] END AS rs,
           [p.f.w, p.w] + CASE WHEN t IS NULL THEN [] ELSE [t.w] END AS ws,
           [u.id, p.f.i, i2] + CASE WHEN t IS NULL THEN [] ELSE [t.i] END AS ids,
           [p.f.k, p.k] + CASE WHEN t IS NULL THEN [] ELSE [t.k] END AS ks
  }
  WITH req, ns, rs, ids, ks, reduce(s = 0.0, x IN ws | s + x) / size(ws) - 0.03 * (size(ws) - 1) AS prior
  ORDER BY prior DESC, size(rs), ids, ks
  LIMIT $limit
  WITH req, collect({ids: ids, edges: [x IN rs | elementId(x)]}) AS paths, collect(rs) AS rs_on, collect(ns) AS ns_on
  CALL (rs_on) {
    UNWIND rs_on AS rs
    UNWIND rs AS x
    WITH DISTINCT x
    RETURN collect(x {.*, type: type(x), start: startNode(x).id, end: endNode(x).id, key: elementId(x)}) AS edges
  }
  CALL (req, ns_on) {
    UNWIND ns_on AS ns
    UNWIND ns AS n
    WITH DISTINCT n
    WITH n, n.embedding AS e
    RETURN collect({node: n {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role, .participants, sources: CASE WHEN COUNT { (n)-[:DERIVED_FROM]-() } <= $inline_sources THEN n.sources END, .created_at, .updated_at, .t_start, .t_end, .last_accessed_at, .access_count, .valid_until, .superseded_at, .learned_at, .last_said_at},
                    sources_left_out: COUNT { (n)-[:DERIVED_FROM]-() } > $inline_sources,
                    sim_r: vector.similarity.cosine(e, req.reasoning),
                    sim_q: vector.similarity.cosine(e, $query)}) AS nodes
  }
  RETURN paths, edges, nodes
}
RETURN req.i AS request, paths, edges, nodes
