// Adds an edge of one type from one memory to another within a space, unless one of
// that type already joins them (MERGE, under the memories' locks taken first in the
// transaction, so two concurrent adds write one edge). $type is a whitelisted
// predicate's RelType. A learned link (REALM.md §4 "ours") also carries $query and
// $label; both are null on other edges.
// Params: $space, $from, $to, $type, $edge_id, $layer, $description, $query, $label,
// $weight, $confidence, $now.
// Returns: edge_id, weight, created (no row when an end is not in the space).
MATCH (a:Memory {id: $from})
WHERE a.space = $space
MATCH (b:Memory {id: $to})
WHERE b.space = $space
MERGE (a)-[r:$($type)]->(b)
  ON CREATE SET r.id = $edge_id, r.layer = $layer, r.description = $description,
                r.query = $query, r.label = $label,
                r.weight = $weight, r.initial_weight = $weight, r.confidence = $confidence,
                r.created_at = $now, r.updated_at = $now, r._edit_new = true
WITH r, coalesce(r._edit_new, false) AS created
REMOVE r._edit_new
RETURN r.id AS edge_id, r.weight AS weight, created
