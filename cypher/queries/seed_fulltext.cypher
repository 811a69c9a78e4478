// Seed candidates by keywords (REALM.md §3.1, keywords_match), scored from this space's
// statistics only, so that a space's results do not depend on what other spaces hold
// (ARCHITECTURE.md, tenancy). Each of $terms is one word: its Lucene query restricted to
// the space (built and escaped in Go; only ever a parameter) and the word itself. The
// index returns the word's matches of the space, at most $options.limit ({} for all).
// A memory scores BM25 (k1 = 1.2, b = 0.75) summed over the words it matches:
// idf = ln(1 + (N − n + 0.5) / (n + 0.5)) (N = $n the space's memories, n those matching the
// word) times tf·2.2 / (tf + 1.2·(0.25 + 0.75·dl / avgdl)), where tf counts the word in
// its name, content and keywords (as a substring: at least 1, since the analyzer matched
// it), dl is its number of words (word_count, stored when it is written; counted here for
// a memory without it) and avgdl the mean over all matches. The filters apply after the
// statistics, which count every memory of the space. A memory's text is built
// once however many words it matches, and the sort carries only the memories that pass.
// Only the memories of $among pass when it is a list (cypher.SeedQuery.Among).
// Params: $space, $n (its memory count), $terms (list of {lucene, word}), $options,
// $types, $time_from, $time_to, $among, $limit.
// Returns: hits (the most hits of one word, so that the caller can tell a truncated
// fetch; on every row), node (the memory's properties; null on the one row when none
// passes), score, best first, ties by id.
WITH $n AS n
UNWIND $terms AS term
CALL (term) {
  CALL db.index.fulltext.queryNodes('memory_text_space_key', term.lucene, $options) YIELD node
  RETURN count(*) AS hits, collect(CASE WHEN node.space = $space THEN node END) AS docs
}
WITH term.word AS word, hits, docs, log(1.0 + (n - size(docs) + 0.5) / (size(docs) + 0.5)) AS idf
OPTIONAL CALL (docs, word, idf) {
  UNWIND docs AS m
  RETURN m, {word: word, idf: idf} AS matched
}
WITH m, collect(matched) AS matched, max(hits) AS hits
WITH m, matched, hits,
     toLower(coalesce(m.name, '') + ' ' + coalesce(m.content, '') + ' ' + reduce(k = '', x IN coalesce(m.keywords, []) | k + ' ' + x)) AS text
WITH max(hits) AS hits,
     collect(CASE WHEN m IS NOT NULL THEN {
       m: m, dl: coalesce(m.word_count, size([w IN split(text, ' ') WHERE w <> ''])),
       parts: [x IN matched | {idf: x.idf, tf: CASE WHEN text CONTAINS x.word THEN size(split(text, x.word)) - 1 ELSE 1 END}]
     } END) AS found
WITH hits, found, reduce(s = 0.0, f IN found | s + f.dl) / CASE size(found) WHEN 0 THEN 1 ELSE size(found) END AS avgdl
WITH hits, [f IN found
            WHERE (size($types) = 0 OR f.m.type IN $types)
              AND ($time_from IS NULL OR f.m.t_start IS NULL OR coalesce(f.m.t_end, f.m.t_start) >= $time_from)
              AND ($time_to IS NULL OR f.m.t_start IS NULL OR f.m.t_start <= $time_to)
              AND ($among IS NULL OR f.m.id IN $among)
            | {m: f.m, score: reduce(s = 0.0, p IN f.parts | s + p.idf * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * f.dl / avgdl)))}] AS passing
UNWIND CASE size(passing) WHEN 0 THEN [null] ELSE passing END AS x
WITH hits, x.m AS m, x.score AS score
ORDER BY score DESC, m.id
LIMIT $limit
RETURN hits, m {.*} AS node, score
