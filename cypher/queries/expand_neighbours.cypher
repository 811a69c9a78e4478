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
// space read per neighbour).
// A frontier memory is read once for all the requests that hold it with the same types and
// reasoning vector (the expansions of one iteration share most of their frontiers): its
// edges and their neighbours' cosines, then each request leaves out its visited memories.
// A frontier memory of at most its request's hub_degree memory edges has all of them read; of a hub
// (more), the first $scan in the store's order are read and only the $hub_branch heaviest
// of them (ties by edge id) that lead out of the request's visited memories are scored (the
// $hub_read heaviest are read, $hub_branch plus twice the most memories a request visits,
// then each request's first $hub_branch unvisited), so that a hub costs a few hundred cosines, not thousands.
// Per frontier memory, each
// edge's score before temporal decay is bounded, bound = sim_share · sim_r + weight_share
// · weight (sim_r clipped to [0, 1] as cos), and only the edges whose bound is within
// margin of its beam-th best memory's (by its best edge) are returned: the others cannot
// make the beam.
// Params: $space, $requests (maps: i, frontier (ids), visited (ids), types (relationship
// types), reasoning (index in $reasonings), hub_degree, beam, margin, sim_share, weight_share),
// $reasonings (vectors or nulls), $w_suppress, $query (vector or null), $scan,
// $hub_branch, $hub_read.
// Rows come in no particular order: pos (the frontier memory's index in its request's frontier)
// and seq (the edge's in the memory's, store order, a hub's by weight) give the order of
// reading each request's frontier alone.
// Returns: request (its i), pos, seq, from_id, edge (properties + type, start, end ids), node (maps:
// node (the properties nodeOf reads: not the embedding), sim_r, sim_q).
UNWIND $requests AS req
UNWIND range(0, size(req.frontier) - 1) AS pos
WITH req.frontier[pos] AS fid, req.types AS types, req.reasoning AS ri, req.hub_degree AS hub_degree, collect({req: req, pos: pos}) AS reqs
MATCH (u:Memory {id: fid})
USING INDEX u:Memory(id)
WHERE u.space = $space
WITH u, types, ri, reqs, COUNT { (u)--() } - COUNT { (u)-[:DERIVED_FROM|REPEAT_OF]-() } > hub_degree AS hub
CALL (u, types, ri, hub) {
  CALL (u, types, hub) {
    WITH u WHERE NOT hub
    MATCH (u)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                  COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v)
    WHERE type(r) IN types AND r.weight >= $w_suppress
    RETURN r, v
    UNION ALL
    WITH u WHERE hub
    MATCH (u)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                  COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-(v)
    WHERE type(r) IN types AND r.weight >= $w_suppress
    WITH r, v
    LIMIT $scan
    WITH r, v
    ORDER BY r.weight DESC, r.id
    LIMIT $hub_read
    RETURN r, v
  }
  // A neighbour's embedding is read once (a property of a few kilobytes, most of a hop's
  // reading): its cosine with the query is taken from it for the rows kept below.
  WITH r, v, v.embedding AS e
  RETURN collect({r: r, v: v, e: e, id: v.id, weight: r.weight, sim_r: vector.similarity.cosine(e, $reasonings[ri])}) AS read
}
UNWIND reqs AS at
WITH at.req AS req, at.pos AS pos, u, [x IN read WHERE NOT x.id IN at.req.visited] AS unvisited, hub
WITH req, pos, u, CASE WHEN hub THEN unvisited[..$hub_branch] ELSE unvisited END AS unvisited
CALL (req, unvisited) {
  WITH req, [x IN unvisited | x {.*, bound: req.sim_share * CASE WHEN x.sim_r IS NULL OR x.sim_r <= 0.5 THEN 0.0
                                                            WHEN x.sim_r >= 1.0 THEN 1.0 ELSE 2 * x.sim_r - 1 END
                                            + req.weight_share * x.weight}] AS rows
  CALL (req, rows) {
    UNWIND rows AS x
    WITH x.id AS v, max(x.bound) AS best
    ORDER BY best DESC
    WITH collect(best) AS bests
    RETURN CASE WHEN size(bests) < req.beam THEN null ELSE bests[req.beam - 1] END AS kth
  }
  WITH [x IN rows WHERE kth IS NULL OR x.bound >= kth - req.margin] AS kept
  UNWIND range(0, size(kept) - 1) AS seq
  RETURN kept[seq].r AS r, kept[seq].v AS v, kept[seq].e AS e, kept[seq].sim_r AS sim_r, seq
}
RETURN req.i AS request, pos, seq, u.id AS from_id,
       r {.*, type: type(r), start: startNode(r).id, end: endNode(r).id} AS edge,
       {node: v {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role, .participants, sources: CASE WHEN COUNT { (v)-[:DERIVED_FROM]-() } <= $inline_sources THEN v.sources END, .created_at, .updated_at, .t_start, .t_end, .last_accessed_at, .access_count, .valid_until, .superseded_at, .learned_at, .last_said_at}, sources_left_out: COUNT { (v)-[:DERIVED_FROM]-() } > $inline_sources, sim_r: sim_r, sim_q: vector.similarity.cosine(e, $query)} AS node
