// The names and aliases of the space's entities that occur in at least $share of its
// observations and in at least $min of them: the participants of a conversation, named in
// most memories, whose names cannot tell memories apart (retrieval leaves them out of the
// query it embeds). The observations are counted once, not per entity.
// Params: $space, $share (0–1), $min. Returns: name, aliases.
CALL () {
  MATCH (o:Observation) WHERE o.space = $space
  RETURN count(o) AS observations
}
MATCH (m:Memory:Entity)
WHERE m.space = $space AND size(m.sources) >= $min
  AND size(m.sources) >= $share * observations
RETURN m.name AS name, coalesce(m.aliases, []) AS aliases
