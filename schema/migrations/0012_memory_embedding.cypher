// Seed localization by cosine similarity (REALM.md §3.1, query_match). The dimension is
// the configured embedder's; {{dims}} is replaced by that integer before the statement runs.
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (m:Memory) ON (m.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: {{dims}}, `vector.similarity_function`: 'cosine'}}
