// Takes the write lock of an existing space for the rest of the transaction (as
// space_lock.cypher) and reads under it, for a run's write: the status of each
// observation of $ids, and a fingerprint of the space's memories, as read with the run's
// neighbourhoods (memory_run_context.cypher): adding, deleting, merging into or ending
// the validity of a memory changes it (their count, the space's memories_version), so an
// unchanged one means the neighbourhoods read are still the space's and need not be read
// again.
// Params: $space, $ids, $now. Returns: statuses (one per id, null for an unknown one),
// n, version; no row when the space does not exist.
MATCH (s:Space {id: $space})
SET s.locked_at = $now
WITH s
CALL (s) {
  UNWIND $ids AS id
  OPTIONAL MATCH (o:Observation {space: $space, id: id})
  RETURN collect({status: o.status}) AS statuses
}
CALL (s) {
  MATCH (m:Memory {space: $space})
  RETURN count(m) AS n
}
RETURN [x IN statuses | x.status] AS statuses, n, coalesce(s.memories_version, '') AS version
