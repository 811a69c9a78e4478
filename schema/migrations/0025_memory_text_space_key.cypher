// Seed localization by keywords within one space (REALM.md §3.1, keywords_match;
// ARCHITECTURE.md, tenancy): a memory's space key (0024) is indexed beside its text, so
// that a query restricted to it (+space_key:…) returns only that space's matches, whatever
// other spaces hold, and the bounded fetch holds them only. The scores are computed from
// the space's own statistics by the caller. It replaces memory_text_space (0018, dropped
// by 0026), which indexed the space id.
CREATE FULLTEXT INDEX memory_text_space_key IF NOT EXISTS FOR (m:Memory) ON EACH [m.space_key, m.name, m.content, m.keywords]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
