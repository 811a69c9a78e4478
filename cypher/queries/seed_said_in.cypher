// Seed candidates said in a time window (realm.Plan.SaidIn): the events and facts (or the
// memories of $types) derived from the messages observed in [$time_from, $time_to], by
// exact cosine with the query. Read from the messages rather than from the episodes: a
// conversation that goes on over several days is said on each of them.
// With $dated_from and $dated_to (else null), also the events and facts whose own time
// (t_start to t_end) meets [$dated_from, $dated_to], whenever they were said.
// Only the memories of $among when it is a list (cypher.SeedQuery.Among).
// Params: $space, $embedding, $types, $time_from, $time_to, $dated_from, $dated_to, $among, $limit.
// Returns: node (the memory's properties), score (Neo4j's (1 + cos) / 2), best first.
CALL () {
  MATCH (o:Observation {space: $space})
  WHERE o.observed_at >= $time_from AND o.observed_at <= $time_to
  MATCH (m:Memory)-[:DERIVED_FROM]->(o)
  RETURN m
  UNION
  MATCH (m:Memory {space: $space})
  WHERE $dated_from IS NOT NULL AND m.t_start <= $dated_to AND coalesce(m.t_end, m.t_start) >= $dated_from
  RETURN m
}
WITH m
WHERE m.space = $space AND m.embedding IS NOT NULL
  AND (m.type IN $types OR size($types) = 0 AND m.type IN ['event', 'fact'])
  AND ($among IS NULL OR m.id IN $among)
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, m.id
LIMIT $limit
RETURN m {.*} AS node, score
