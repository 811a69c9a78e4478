// One hop of expansion (REALM.md §3.2, subgraph_beam): the memories adjacent to a
// frontier, in either direction, over the allowed relationship types, across edges whose
// weight is at least the suppression floor, leaving out the $visited ones. Each edge's
// score before temporal decay is bounded here, bound = $sim_share · sim_r + $weight_share
// · weight with sim_r Neo4j's cosine of the neighbour and the reasoning text ((1 + cos) /
// 2, clipped to [0, 1] as cos); only the edges whose bound is within $margin of the
// $beam-th best memory's (by its best edge) are returned: the others cannot make the
// beam, and a memory of thousands of edges (a conversation's speaker) does not send them
// all with their embeddings. Rows keep the order of the frontier and of the matching.
// Params: $space, $frontier (ids), $types (relationship types), $w_suppress, $visited
// (ids), $reasoning (vector), $sim_share, $weight_share, $beam, $margin.
// Returns: from_id, edge (properties + type, start, end ids), node (the neighbour's
// properties).
UNWIND $frontier AS fid
MATCH (u:Memory {id: fid})-[r]-(v:Memory)
WHERE u.space = $space AND v.space = $space
  AND type(r) IN $types AND r.weight >= $w_suppress
  AND NOT v.id IN $visited
WITH fid, r, v, vector.similarity.cosine(v.embedding, $reasoning) AS sim_r
WITH collect({fid: fid, r: r, v: v,
              bound: $sim_share * CASE WHEN sim_r IS NULL OR sim_r <= 0.5 THEN 0.0
                                       WHEN sim_r >= 1.0 THEN 1.0 ELSE 2 * sim_r - 1 END
                     + $weight_share * r.weight}) AS rows
CALL (rows) {
  UNWIND rows AS x
  WITH x.v AS v, max(x.bound) AS best
  ORDER BY best DESC
  LIMIT $beam
  RETURN min(best) AS kth, count(v) AS kept
}
UNWIND [x IN rows WHERE kept < $beam OR x.bound >= kth - $margin] AS x
WITH x.fid AS fid, x.r AS r, x.v AS v
RETURN fid AS from_id,
       r {.*, type: type(r), start: startNode(r).id, end: endNode(r).id} AS edge,
       v {.*} AS node
