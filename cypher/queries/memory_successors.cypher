// The newer versions of superseded memories: for each id, the memories with a supersedes
// edge to it (REALM.md §1), across edges whose weight is at least the suppression floor.
// Params: $space, $ids, $w_suppress.
// Returns: old_id, weight and description (the edge's), node (the newer memory's properties).
UNWIND $ids AS id
MATCH (old:Memory {id: id})<-[r:SUPERSEDES]-(m:Memory)
USING INDEX old:Memory(id)
WHERE old.space = $space AND m.space = $space AND r.weight >= $w_suppress
RETURN id AS old_id, r.weight AS weight, r.description AS description, m {.*} AS node
ORDER BY old_id, weight DESC, m.id
