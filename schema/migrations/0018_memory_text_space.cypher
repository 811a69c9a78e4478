// Seed localization by keywords within one space (REALM.md §3.1, keywords_match;
// ARCHITECTURE.md, tenancy): the space is indexed beside the text, so that a query
// restricted to it (+space:"…") returns only that space's matches, whatever other
// spaces hold. The scores are computed from the space's own statistics by the caller.
CREATE FULLTEXT INDEX memory_text_space IF NOT EXISTS FOR (m:Memory) ON EACH [m.space, m.name, m.content, m.keywords]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
