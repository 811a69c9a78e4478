// Seed localization by keywords (REALM.md §3.1, keywords_match).
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.name, m.content, m.keywords]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
