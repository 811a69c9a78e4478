// Takes the write lock of an existing space for the rest of the transaction (as
// space_lock.cypher) and reads under it, for a run's write: the status of each
// observation of $ids, and a fingerprint of the space's memories, as read with the run's
// neighbourhoods (memory_run_context.cypher): adding, deleting, merging into or ending
// the validity of a memory changes it (their count, the space's memories_version), so an
// unchanged one means the neighbourhoods read are still the space's and need not be read
// again.
// Counting the space's memories reads each of them: when the version is $known, the one
// the run's neighbourhoods were read at, the count is the one read then, $known_n (every
// write of a memory moves the version).
// Params: $space, $ids, $now, $known (a version, or ''), $known_n.
// Returns: statuses (one per id, null for an unknown one), n, version, forgotten (the
// messages the space forgot: cypher.Integration.Forgotten); no row when the space does
// not exist, also when its node was deleted while this statement waited for its lock
// (as space_lock.cypher).
MATCH (s:Space {id: $space})
SET s.locked_at = $now
WITH s
WHERE EXISTS { MATCH (:Space {id: $space}) }
CALL (s) {
  UNWIND $ids AS id
  OPTIONAL MATCH (o:Observation {space: $space, id: id})
  USING INDEX o:Observation(space, id)
  RETURN collect({status: o.status}) AS statuses
}
WITH s, statuses, coalesce(s.memories_version, '') AS version
CALL (version) {
  WITH CASE WHEN version <> '' AND version = $known THEN null ELSE $space END AS counting
  MATCH (m:Memory) WHERE m.space = counting
  RETURN count(m) AS counted
}
RETURN [x IN statuses | x.status] AS statuses,
       CASE WHEN version <> '' AND version = $known THEN $known_n ELSE counted END AS n, version,
       coalesce(s.forgotten, 0) AS forgotten
