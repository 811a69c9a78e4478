// The full-text seed's document length (REALM.md §3.1, keywords_match; seed_fulltext.cypher's
// dl): a memory's words, its name, content and keywords split at spaces, stored as
// word_count when it is written (cypher.WordCount); this fills it for the memories written
// before, in batches. Idempotent: only memories without it are set.
MATCH (m:Memory) WHERE m.word_count IS NULL
CALL (m) {
  SET m.word_count = size([w IN split(coalesce(m.name, '') + ' ' + coalesce(m.content, '') + ' ' + reduce(k = '', x IN coalesce(m.keywords, []) | k + ' ' + x), ' ') WHERE w <> ''])
} IN TRANSACTIONS OF 10000 ROWS
