// Records one recall in one statement (REALM.md §3.3): counts an access to every returned
// memory (REALM.md §1 access_count, last_accessed_at), locking them in the order of $ids
// (sorted by the caller, so that two recalls never wait for each other in a cycle), and
// stores the trace as a (:Trace) node whose JSON document is the whole trace.
// Params: $space, $ids, $now, $id, $created_at, $query, $json.
// Returns: nothing.
CALL () {
  UNWIND $ids AS mid
  MATCH (m:Memory {id: mid})
  USING INDEX m:Memory(id)
  WHERE m.space = $space
  SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = $now
}
CREATE (:Trace {id: $id, space: $space, created_at: $created_at, query: $query, json: $json})
