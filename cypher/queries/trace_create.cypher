// Stores the trace of one recall (REALM.md §3.3); the whole trace is the JSON document.
// Not into a space being erased (space_delete_batch.cypher marks it) or erased: a recall
// that outlives the erasure of its space leaves no trace of its query. A space exists
// from its first observation or import (its Space node); a test fixture's, from its
// first memory (cypher.Store.PutMemories writes no Space node).
// Params: $id, $space, $created_at, $query, $json.
// Returns: stored (0 when the space is gone).
OPTIONAL MATCH (s:Space {id: $space})
WITH s
WHERE CASE WHEN s IS NULL THEN EXISTS { MATCH (m:Memory) WHERE m.space = $space } ELSE s.erasing IS NULL END
CREATE (:Trace {id: $id, space: $space, created_at: $created_at, query: $query, json: $json})
RETURN count(*) AS stored
