// Records an asynchronous ingestion job and the observations it covers.
// Params: $space, $id, $observations, $now. Returns: id.
CREATE (j:Job {id: $id, space: $space, status: 'running', total: size($observations),
               observations: $observations, error: null, created_at: $now, updated_at: $now})
RETURN j.id AS id
