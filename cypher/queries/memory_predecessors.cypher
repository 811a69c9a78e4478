// The older versions that still hold at $as_of of memories that begin to hold later: for
// each id, the memories its supersedes edges (weight at least the suppression floor) lead
// to whose validity ends after $as_of (REALM.md §2 "Ours": a change that takes effect later,
// a correction sent with a valid_from to come).
// Params: $space, $ids, $as_of, $w_suppress.
// Returns: new_id, node (the older memory's properties).
UNWIND $ids AS id
MATCH (m:Memory {id: id})-[r:SUPERSEDES]->(old:Memory)
USING INDEX m:Memory(id)
WHERE m.space = $space AND old.space = $space AND r.weight >= $w_suppress AND old.valid_until > $as_of
RETURN id AS new_id, old {.*} AS node
ORDER BY new_id, old.id
