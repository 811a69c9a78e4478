// The entities and episodes a forget left to derive again, their embedding (and an
// episode's text) to be made anew (cypher.Store.RederivePending): the mark
// (rederive: true) is set by observation_delete_finish.cypher and removed by
// episode_rederive.cypher.
// Params: $space ('': every space), $limit.
// Returns: space, id, type, name, content, per memory, by space and id.
MATCH (m:Memory)
WHERE m.rederive = true AND ($space = '' OR m.space = $space)
RETURN m.space AS space, m.id AS id, m.type AS type, m.name AS name, m.content AS content
ORDER BY space, id
LIMIT $limit
