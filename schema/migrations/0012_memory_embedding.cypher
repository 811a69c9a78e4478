// Seed localization by cosine similarity (REALM.md §3.1, query_match). The dimension is
// the configured embedder's; {{dims}} is replaced by that integer before the statement runs.
// On Neo4j 2026.x the index also holds each memory's space (Cypher 25's WITH [m.space]),
// so that a search filters by space inside the index (seed_vector_filtered.cypher); the
// two other placeholders are empty on 5.26.
{{cypher}}CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (m:Memory) ON (m.embedding){{vector_filter}}
OPTIONS {indexConfig: {`vector.dimensions`: {{dims}}, `vector.similarity_function`: 'cosine'}}
