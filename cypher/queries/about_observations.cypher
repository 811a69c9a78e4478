// The observations of a space that name someone (POST …/forget, cypher.Store.About):
// those whose speaker or content matches one of $patterns (aboutPatterns: a phrase as
// whole words, in any case), each read once: the request is rare, the space's messages
// are read through its index.
// Params: $space, $patterns.
// Returns: id, in the order they were said (seq).
MATCH (o:Observation {space: $space})
WHERE any(p IN $patterns WHERE coalesce(o.speaker, '') + '\n' + coalesce(o.content, '') =~ p)
RETURN o.id AS id
ORDER BY o.seq
