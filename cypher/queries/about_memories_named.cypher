// The events and facts of a space whose own words name someone (POST …/forget,
// cypher.Store.About): those whose name or content, composed (NFC), matches one of
// $patterns (aboutPatterns), whatever their messages say: a client's correction (PATCH
// …/memories/{id}, which keeps the provenance of the memory it corrects), an imported
// memory, one whose extraction wrote the name for a pronoun. Read once: the request is
// rare.
// Params: $space, $patterns.
// Returns: id, in id order.
MATCH (m:Memory)
WHERE m.space = $space AND (m:Event OR m:Fact)
WITH m, normalize(coalesce(m.name, '') + '\n' + coalesce(m.content, ''), NFC) AS said
WHERE any(p IN $patterns WHERE said =~ p)
RETURN m.id AS id
ORDER BY id
