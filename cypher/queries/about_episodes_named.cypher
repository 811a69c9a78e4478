// The episodes of a space whose own words name someone (POST …/forget, cypher.Store.About):
// those whose name, content, description, participants or keywords, composed (NFC), match
// one of $patterns (aboutPatterns), whatever their messages say: the session's first
// speaker taken to answer someone who spoke to them in an earlier session, an imported
// episode. Read once: the request is rare.
// Params: $space, $patterns.
// Returns: id, in id order.
MATCH (m:Episode)
WHERE m.space = $space
WITH m, normalize(reduce(s = coalesce(m.name, '') + '\n' + coalesce(m.content, '') + '\n' + coalesce(m.description, ''),
                         w IN coalesce(m.participants, []) + coalesce(m.keywords, []) | s + '\n' + w), NFC) AS said
WHERE any(p IN $patterns WHERE said =~ p)
RETURN m.id AS id
ORDER BY id
