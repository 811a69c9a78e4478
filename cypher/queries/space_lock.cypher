// Takes the write lock of an existing space for the rest of the transaction (writes of
// one space are serialized across processes, ARCHITECTURE.md Scale-out) and reads, under
// that lock, the status of the observation being integrated and the space's forget count.
// Params: $space, $id, $now. Returns: status (null when the observation does not exist),
// generation (realm.Observation.Generation, null for 0), forgotten (the messages the space
// forgot: cypher.Integration.Forgotten), erasing (the space is being erased:
// space_delete_batch.cypher), created_at (the space's: one made after the observation was
// stored is not the one it was stored in: cypher.Integration.Saved); no row when the space does not exist, also when its node
// was deleted while this statement waited for its lock (the end of an erasure,
// space_delete_node.cypher), whose properties it would read as none.
MATCH (s:Space {id: $space})
SET s.locked_at = $now
WITH s
WHERE EXISTS { MATCH (:Space {id: $space}) }
OPTIONAL MATCH (o:Observation {space: $space, id: $id})
USING INDEX o:Observation(space, id)
RETURN o.status AS status, o.generation AS generation, coalesce(s.forgotten, 0) AS forgotten,
       coalesce(s.erasing, false) AS erasing, s.created_at AS created_at
