// Applies one reconsolidation's edits and logs them (REALM.md §4.4) in one statement,
// with the update rule of strengthen and weaken given as a step toward a target
// (new = old + rate · (target − old), kept in [$floor, 1]) so that the new weights are
// computed here, from the weights read under the locks. The memories of the batch are
// locked first, in the order of $ids (sorted by the caller), then every edge of each
// (from, to, type) of $pairs; each pair's edits are then applied in order to what was read
// of it (an edge edited twice is edited from its first new weight; an add writes an edge
// only when both memories are of the space), the log put back in the order of the edits,
// then the weights (each edge's last) are set, the added edges written (with their last
// weight too, as logged: a later edit of the batch moves it from its add's) and the log
// written. The fold
// runs per pair: one over the whole batch, rebuilding a list of all pairs at every edit,
// made Neo4j's memory estimate grow exponentially with the edits (43 GiB for 26).
// The edits were planned on the edges as they were before the locks: when one finds its
// pair otherwise (an add, an edge there; a strengthen or weaken, none), another write has
// changed them since, and the batch is stale: it writes nothing, not even the space's
// graph_version, and the caller plans again on the edges as they are now.
// Params: $space, $now, $floor, $feedback_of, $ids (sorted memory ids), $pairs (maps: i, from, to,
// type), $ops (the directed edits in order, maps: pair (its pair's i), action, from, to,
// rate, target (strengthen, weaken), add (add: edge_id, type, layer, description, query,
// label, weight, confidence; else null), log (the Edit's properties but seq, edge_id,
// old_weight and new_weight)).
// Returns: one row (none when $feedback_of's feedback stands): stale, logged (in order, maps:
// op (its index in $ops), id, edge_id, old_weight (null for an add), new_weight; empty when
// stale), before and after (the space's graph_version before and after the statement, the
// same when stale; null without a Space node).
// It moves the space's graph_version, read under the Space node's lock, which it takes
// first (so before is the version this write follows, and this process's snapshot of it
// can follow the write, graphcache.go),
// and marks the space as holding learned links when an add carries a query (cypher/learned.go).
// With $feedback_of (a trace id; else null), under the same lock, it does nothing and
// returns no row when that trace already has feedback edits that are not reverted: two
// copies of one feedback sent at once are applied once.
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g._edit_lock = true
  REMOVE g._edit_lock
  WITH g
  OPTIONAL CALL () {
    MATCH (x:Edit {trace_id: $feedback_of})
    WHERE x.space = $space AND x.source = 'feedback' AND NOT x.reverted
    RETURN true AS held
    LIMIT 1
  }
  WITH g, held
  WHERE held IS NULL
  RETURN g, g.graph_version AS before
}
CALL () {
  UNWIND $ids AS mid
  MATCH (m:Memory {id: mid})
  USING INDEX m:Memory(id)
  WHERE m.space = $space
  SET m._edit_lock = true
  REMOVE m._edit_lock
  RETURN collect(m.id) AS found
}
CALL () {
  UNWIND $pairs AS p
  CALL (p) {
    MATCH (a:Memory {id: p.from})-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                                      COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]->(b:Memory {id: p.to})
    USING INDEX a:Memory(id)
    WHERE a.space = $space AND b.space = $space AND type(r) = p.type
    SET r._edit_lock = true
    REMOVE r._edit_lock
    RETURN collect({id: r.id, weight: r.weight}) AS edges, collect(r) AS rels
  }
  WITH p, edges, rels
  ORDER BY p.i
  RETURN collect(edges) AS read, reduce(all = [], x IN collect(rels) | all + x) AS rels
}
CALL (found, read) {
  UNWIND range(0, size(read) - 1) AS p
  WITH reduce(acc = {edges: read[p], log: [], stale: false}, k IN [k IN range(0, size($ops) - 1) WHERE $ops[k].pair = p] |
    CASE
      WHEN $ops[k].action <> 'add' THEN {
        edges: [e IN acc.edges | e {.*, weight: CASE
                 WHEN e.weight + $ops[k].rate * ($ops[k].target - e.weight) < $floor THEN $floor
                 WHEN e.weight + $ops[k].rate * ($ops[k].target - e.weight) > 1.0 THEN 1.0
                 ELSE e.weight + $ops[k].rate * ($ops[k].target - e.weight) END}],
        log: acc.log + [e IN acc.edges | {op: k, edge_id: e.id, old_weight: e.weight, new_weight: CASE
                 WHEN e.weight + $ops[k].rate * ($ops[k].target - e.weight) < $floor THEN $floor
                 WHEN e.weight + $ops[k].rate * ($ops[k].target - e.weight) > 1.0 THEN 1.0
                 ELSE e.weight + $ops[k].rate * ($ops[k].target - e.weight) END}],
        stale: acc.stale OR size(acc.edges) = 0}
      WHEN size(acc.edges) > 0 THEN acc {.*, stale: true}
      WHEN $ops[k].from IN found AND $ops[k].to IN found THEN {
        edges: [{id: $ops[k].add.edge_id, weight: $ops[k].add.weight}],
        log: acc.log + [{op: k, edge_id: $ops[k].add.edge_id, old_weight: null, new_weight: $ops[k].add.weight}],
        stale: acc.stale}
      ELSE acc
    END) AS pair
  WITH collect(pair) AS pairs
  RETURN any(x IN pairs WHERE x.stale) AS stale, reduce(all = [], x IN pairs | all + x.log) AS folded
}
CALL (stale, folded) {
  UNWIND range(0, size(folded) - 1) AS j
  WITH folded[j] AS x, j
  WHERE NOT stale
  ORDER BY x.op, j
  RETURN collect(x) AS log
}
CALL (g, stale) {
  WITH g
  WHERE NOT stale
  SET g.graph_version = randomUUID(),
      g.learned_links = CASE WHEN any(op IN $ops WHERE op.add.query IS NOT NULL) THEN true ELSE g.learned_links END
}
CALL (log, rels) {
  UNWIND rels AS r
  WITH r, [x IN log WHERE x.edge_id = r.id] AS edits
  WHERE size(edits) > 0
  SET r.weight = edits[-1].new_weight, r.updated_at = $now
  RETURN count(r) AS set
}
CALL (log) {
  UNWIND log AS x
  WITH x, $ops[x.op] AS op
  WHERE op.action = 'add'
  MATCH (a:Memory {id: op.from})
  USING INDEX a:Memory(id)
  WHERE a.space = $space
  MATCH (b:Memory {id: op.to})
  USING INDEX b:Memory(id)
  WHERE b.space = $space
  MERGE (a)-[r:$(op.add.type)]->(b)
    ON CREATE SET r.id = op.add.edge_id, r.layer = op.add.layer, r.description = op.add.description,
                  r.query = op.add.query, r.label = op.add.label,
                  r.weight = [y IN log WHERE y.edge_id = op.add.edge_id][-1].new_weight,
                  r.initial_weight = op.add.weight, r.confidence = op.add.confidence,
                  r.created_at = $now, r.updated_at = $now
  RETURN count(r) AS added
}
CALL (log) {
  UNWIND range(0, size(log) - 1) AS seq
  WITH seq, log[seq] AS x
  CREATE (e:Edit)
  SET e = $ops[x.op].log, e.id = randomUUID(), e.seq = seq, e.edge_id = x.edge_id,
      e.old_weight = x.old_weight, e.new_weight = x.new_weight, e.space = $space, e.reverted = false
  RETURN collect(x {.op, .edge_id, .old_weight, .new_weight, id: e.id}) AS logged
}
RETURN stale, logged, before, g.graph_version AS after
