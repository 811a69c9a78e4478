// The write path's keyword search of a space (REALM.md §2 step 3, N_sim by keywords),
// from the space's own statistics as seed_fulltext.cypher scores seeds, so that what
// other spaces hold changes nothing: for each word of $terms, the memories of the space
// the full-text index matches (at most $options.limit, the index's best first), each
// with the word's count in its text (tf) and the text's length in words (dl), computed
// as seed_fulltext computes them. The caller ranks by BM25 (cypher.RankKeywords), so
// that a run of observations can rank the memories it writes among these the same way.
// Params: $space, $terms (list of {lucene, word}), $options (the index's options map).
// Returns: n (the space's memories, on every row), word, hits (the index's hits for the
// word, to tell a truncated fetch), postings (list of {id, tf, dl}).
WITH COUNT { MATCH (m:Memory) WHERE m.space = $space } AS n
UNWIND $terms AS term
CALL (term) {
  CALL db.index.fulltext.queryNodes('memory_text_space', term.lucene, $options) YIELD node
  RETURN count(*) AS hits, collect(CASE WHEN node.space = $space THEN node END) AS docs
}
CALL (docs, term) {
  UNWIND docs AS m
  WITH m, toLower(coalesce(m.name, '') + ' ' + coalesce(m.content, '') + ' ' + reduce(k = '', x IN coalesce(m.keywords, []) | k + ' ' + x)) AS text
  RETURN collect({id: m.id, tf: CASE WHEN text CONTAINS term.word THEN size(split(text, term.word)) - 1 ELSE 1 END,
                  dl: size([w IN split(text, ' ') WHERE w <> ''])}) AS postings
}
RETURN n, term.word AS word, hits, postings
