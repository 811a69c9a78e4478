// An episode of a space and the first message, by seq, of those it derives from: the one
// that opens its session among those that stay after another was forgotten, which it is
// derived again from (cypher.Store.RederiveEpisode).
// Params: $space, $id.
// Returns: e (every property of the episode but its embedding), o (every property of the
// message); no row when the episode is not in the space or derives from no message.
MATCH (e:Episode {id: $id})
WHERE e.space = $space
MATCH (e)-[:DERIVED_FROM]->(o:Observation)
RETURN e {.*, embedding: null} AS e, o {.*} AS o
ORDER BY o.seq
LIMIT 1
