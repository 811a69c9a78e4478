// Takes the write lock of an existing space for the rest of the transaction, the lock
// the write path takes (space_lock, space_lock_run), and finds the observation to delete
// under it (cypher.DeleteObservation): an integration of it that has not written yet
// then finds it gone and writes nothing; one that wrote before sees its memories
// deleted. It moves the space's graph_version (the snapshot of the space this process
// holds follows the deletion: graphcache.go followWrite) and its memories_version
// (cypher.SpaceState; the keyword index follows too, keywords.go). The space's running
// summary, which the integration of the observation rewrote and may hold its words, is
// emptied: the extraction of the next message starts it afresh (as in a new space, the
// recent messages still shown). It counts the message in the space's forgotten (the
// observations stored after it take it as their generation: cypher.ObservationKey). The
// caller rolls the transaction back when the observation is not there.
// Params: $space, $id, $now.
// Returns: found, graph_before, graph_after, version_before, version_after (as
// memory_delete.cypher); no row when the space does not exist.
MATCH (s:Space {id: $space})
WITH s, s.graph_version AS graph_before, s.memories_version AS version_before
SET s.locked_at = $now, s.graph_version = randomUUID(), s.memories_version = randomUUID(),
    s.forgotten = coalesce(s.forgotten, 0) + 1
WITH s, graph_before, version_before
OPTIONAL MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
FOREACH (_ IN CASE WHEN o.status = 'integrated' AND s.summary <> '' THEN [1] ELSE [] END |
  SET s.summary = '', s.summary_updated_at = $now)
RETURN o IS NOT NULL AS found, graph_before, s.graph_version AS graph_after,
       version_before, s.memories_version AS version_after
