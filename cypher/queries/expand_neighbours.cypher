// One hop of expansion (REALM.md §3.2, subgraph_beam) for several expansions at once, one
// round trip for a whole frontier: for each of $requests, the memories adjacent to its
// frontier, in either direction, over its allowed relationship types, across edges whose
// weight is at least the suppression floor, leaving out its visited ones, with Neo4j's
// cosines ((1 + cos) / 2) of each and the request's reasoning vector and the query vector:
// the memories' embeddings are not sent. The pattern names the fifteen predicates'
// relationship types (the memory edges), so that a memory's provenance edges are not
// read: a speaker's entity has tens of thousands. Only the frontier memories are checked
// to be of the space: every statement that writes a memory edge joins two memories of
// one space, so their neighbours over those types are memories of it too (no label or
// space read per neighbour). A frontier memory of at most $hub_degree memory edges has
// all of them read; of a hub (more), the first $scan in the
// store's order are read and only the $hub_branch heaviest of them (ties by edge id) are
// scored, so that a hub costs $hub_branch cosines, not thousands. Per frontier memory, each
// edge's score before temporal decay is bounded, bound = sim_share · sim_r + weight_share
// · weight (sim_r clipped to [0, 1] as cos), and only the edges whose bound is within
// margin of its beam-th best memory's (by its best edge) are returned: the others cannot
// make the beam. Rows keep the order of the requests and of each frontier.
// Params: $space, $requests (maps: i, frontier (ids), visited (ids), types (relationship
// types), reasoning (vector or null), beam, margin, sim_share, weight_share), $w_suppress,
// $query (vector or null), $hub_degree, $scan, $hub_branch.
// Returns: request (its i), from_id, edge (properties + type, start, end ids), node (maps:
// node (the properties nodeOf reads: not the embedding), sim_r, sim_q).
UNWIND $requests AS req
UNWIND req.frontier AS fid
MATCH (u:Memory {id: fid})
WHERE u.space = $space
WITH req, u, COUNT { (u)--() } - COUNT { (u)-[:DERIVED_FROM]-() } > $hub_degree AS hub
CALL (req, u, hub) {
  CALL (req, u, hub) {
    WITH req, u WHERE NOT hub
    MATCH (u)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                  COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v)
    WHERE type(r) IN req.types AND r.weight >= $w_suppress
      AND NOT v.id IN req.visited
    RETURN r, v
    UNION ALL
    WITH req, u WHERE hub
    MATCH (u)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                  COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v)
    WHERE type(r) IN req.types AND r.weight >= $w_suppress
      AND NOT v.id IN req.visited
    WITH r, v
    LIMIT $scan
    WITH r, v
    ORDER BY r.weight DESC, r.id
    LIMIT $hub_branch
    RETURN r, v
  }
  WITH r, v, vector.similarity.cosine(v.embedding, req.reasoning) AS sim_r
  WITH collect({r: r, v: v, sim_r: sim_r,
                bound: req.sim_share * CASE WHEN sim_r IS NULL OR sim_r <= 0.5 THEN 0.0
                                         WHEN sim_r >= 1.0 THEN 1.0 ELSE 2 * sim_r - 1 END
                       + req.weight_share * r.weight}) AS rows
  CALL (req, rows) {
    UNWIND rows AS x
    WITH x.v AS v, max(x.bound) AS best
    ORDER BY best DESC
    WITH collect(best) AS bests
    RETURN CASE WHEN size(bests) < req.beam THEN null ELSE bests[req.beam - 1] END AS kth
  }
  UNWIND [x IN rows WHERE kth IS NULL OR x.bound >= kth - req.margin] AS x
  RETURN x.r AS r, x.v AS v, x.sim_r AS sim_r
}
RETURN req.i AS request, u.id AS from_id,
       r {.*, type: type(r), start: startNode(r).id, end: endNode(r).id} AS edge,
       {node: v {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role, .participants, .sources, .created_at, .updated_at, .t_start, .t_end, .last_accessed_at, .access_count, .valid_until, .superseded_at}, sim_r: sim_r, sim_q: vector.similarity.cosine(v.embedding, $query)} AS node
