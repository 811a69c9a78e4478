// The observations of a space that name someone (POST …/forget, cypher.Store.About):
// those whose speaker or content matches one of $patterns (aboutPatterns: a phrase as
// whole words, in any case), or whose session id matches one of $sessions
// (sessionPatterns: a session named after the person is about them, all of it), the
// text composed (NFC) as the patterns are, each read once: the request is rare, the
// space's messages are read through its index.
// Params: $space, $patterns, $sessions.
// Returns: id, in the order they were said (seq).
MATCH (o:Observation {space: $space})
WITH o, normalize(coalesce(o.speaker, '') + '\n' + coalesce(o.content, ''), NFC) AS said,
     normalize(coalesce(o.session_id, ''), NFC) AS session
WHERE any(p IN $patterns WHERE said =~ p) OR any(p IN $sessions WHERE session =~ p)
RETURN o.id AS id
ORDER BY o.seq
