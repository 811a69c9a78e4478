// Seed candidates said in a time window (realm.Plan.SaidIn): the events and facts that the
// episodes of the conversations held in [$time_from, $time_to] contextualize, by exact
// cosine with the query. An episode spans its conversation's first day, so the
// (space, t_start) index is read from the day before the window to its end.
// Params: $space, $embedding, $types, $time_from, $time_to, $limit.
// Returns: node (the memory's properties), score (Neo4j's (1 + cos) / 2), best first.
MATCH (ep:Memory {space: $space})
WHERE ep.t_start >= $time_from - duration('P1D') AND ep.t_start <= $time_to
  AND ep.type = 'episode' AND coalesce(ep.t_end, ep.t_start) >= $time_from
MATCH (ep)-[:CONTEXTUALIZES]->(m:Memory)
WHERE m.space = $space AND m.embedding IS NOT NULL AND (size($types) = 0 OR m.type IN $types)
WITH DISTINCT m
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, m.id
LIMIT $limit
RETURN m {.*} AS node, score
