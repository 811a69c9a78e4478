// The names and aliases of the space's entities that occur in at least $share of its
// observations and in at least $min of them: the participants of a conversation, named in
// most memories, whose names cannot tell memories apart (retrieval leaves them out of the
// query it embeds).
// Params: $space, $share (0–1), $min. Returns: name, aliases.
MATCH (m:Memory:Entity)
WHERE m.space = $space AND size(m.sources) >= $min
  AND size(m.sources) >= $share * COUNT { MATCH (o:Observation) WHERE o.space = $space }
RETURN m.name AS name, coalesce(m.aliases, []) AS aliases
