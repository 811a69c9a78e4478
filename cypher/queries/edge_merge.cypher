// Writes one typed edge between two memories of a space; at most one edge of a type
// between an ordered pair (MERGE). A new edge gets every property; an existing one takes
// the new weight and description. $type is a whitelisted predicate's RelType.
// Params: $space, $from, $to, $type, $layer, $description, $weight, $confidence, $now.
// Returns: id, weight, created (no row when an end is not in the space).
MATCH (a:Memory {id: $from, space: $space})
MATCH (b:Memory {id: $to, space: $space})
MERGE (a)-[r:$($type)]->(b)
  ON CREATE SET r.id = randomUUID(), r.layer = $layer, r.initial_weight = $weight,
                r.created_at = $now, r.is_new = true
SET r.description = $description, r.weight = $weight, r.confidence = $confidence, r.updated_at = $now
WITH r, coalesce(r.is_new, false) AS created
REMOVE r.is_new
RETURN r.id AS id, r.weight AS weight, created
