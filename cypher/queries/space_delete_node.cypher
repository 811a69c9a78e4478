// Deletes the (:Space) node itself once nothing of the space is left, under the space's
// write lock: a save (space_lock_save), an integration (space_lock, space_lock_run) or a
// job (job_create) that wrote into the space between the erasure's last batch and this
// statement committed first, and what it wrote is found here (left: the caller erases it
// and comes back); one that waits for the lock finds the node gone (each re-checks it
// under the lock) and writes nothing into the erased space. A space without its node (a
// test fixture's, or one erased already) has no lock to take and is only checked.
// Params: $space, $now. Returns: deleted (0 or 1), left (something of the space remains).
OPTIONAL MATCH (s:Space {id: $space})
SET s.locked_at = $now
WITH s, EXISTS {
  MATCH (n)
  WHERE (n:Memory OR n:Observation OR n:Trace OR n:Edit OR n:Job) AND n.space = $space
} AS left
CALL (s, left) {
  WITH s
  WHERE s IS NOT NULL AND NOT left
  DETACH DELETE s
  RETURN count(*) AS deleted
}
RETURN deleted, left
