// Writes typed edges between memories of a space, in list order; at most one edge of a
// type between an ordered pair (MERGE: a later row of the same pair and type updates the
// edge an earlier one wrote). A new edge gets every property; an existing one takes the
// new weight and description. Each type is a whitelisted predicate's RelType.
// Params: $space, $edges (list of {i, from, to, type, layer, description, weight,
// confidence}), $now.
// Returns: i, id (one row per edge whose ends are both in the space).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
UNWIND $edges AS e
MATCH (a:Memory {id: e.from, space: $space})
MATCH (b:Memory {id: e.to, space: $space})
MERGE (a)-[r:$(e.type)]->(b)
  ON CREATE SET r.id = randomUUID(), r.layer = e.layer, r.initial_weight = e.weight, r.created_at = $now
SET r.description = e.description, r.weight = e.weight, r.confidence = e.confidence, r.updated_at = $now
RETURN e.i AS i, r.id AS id
