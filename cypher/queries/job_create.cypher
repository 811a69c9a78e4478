// Records an asynchronous ingestion job and the observations it covers, under the space's
// write lock, unless the space was erased since its observations were saved, or is being
// erased (space_delete_batch.cypher marks it): the erasure erases its messages, and a job
// recorded then would outlive it, reading each of them forgotten. No row then: the job
// reads not found, as one whose space was erased.
// Params: $space, $id, $observations, $now. Returns: id.
MATCH (s:Space {id: $space})
SET s.locked_at = $now
WITH s
WHERE EXISTS { MATCH (:Space {id: $space}) } AND s.erasing IS NULL
CREATE (j:Job {id: $id, space: $space, status: 'running', total: size($observations),
               observations: $observations, error: null, created_at: $now, updated_at: $now})
RETURN j.id AS id
