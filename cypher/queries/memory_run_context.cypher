// What the neighbourhoods of a run's candidates (REALM.md §2 step 3) need of a space
// besides the similarity search, in one statement: the fingerprint of its memories
// (cypher.SpaceState: their count and the space's memories_version), N_recent (the memories derived from the observations
// $ids, each with those of them it derives from), and the keyword half of N_sim as
// postings, from the space's own statistics as seed_fulltext.cypher scores seeds, so
// that what other spaces hold changes nothing: for each word of $terms, the memories of
// the space the full-text index matches (at most $options.limit, the index's best
// first; none for a common word: one matching at least $common_at memories of a space
// of more than $common_at, whose fetch would be the index's best of many, cypher.KeywordStats),
// and the lower-cased text of each of them once, from which the caller counts
// the word in the text (tf) and the text's words (dl) as seed_fulltext computes them
// (cypher.TextPosting; counting here, once per word and memory, was most of the
// statement's time). The caller ranks by BM25 (cypher.RankKeywords), so that a run can
// rank the memories it writes among these the same way.
// Counting the space's memories reads each of them: when the version is $known, one this
// process read the space at, the count is the one read then, $known_n (every write of a
// memory moves the version, as seed_space_size.cypher counts).
// A recent memory that derives from more than $inline_sources observations (a speaker's
// entity derives from every observation naming the speaker: 39,186 at 100,000 memories)
// comes without its sources (null): reading the list, even for its last items, was most
// of the statement's time (at 100,000, 27 recent observations: 66–80 ms with it, 26
// without, over HTTP).
// The memories derived from $ids are reached from the observations, one key seek per id
// (hinted): left to the statistics, the planner can start from the memories instead,
// scanning the memory_space index and expanding every memory of the space (91 db hits
// instead of 4 on a 26-memory space, more than the count the known version saves).
// Params: $space, $ids, $terms (list of {lucene, word}), $options (the index's options map),
// $common_at (0: no word is common), $known (a version, or ''), $known_n, $inline_sources.
// Returns one row: n, version (the fingerprint), recent (list of {m
// (properties incl. embedding, sources perhaps left out), from (observation ids)}, by m.id), words (list of {word,
// common, ids (the memories matching it)}), texts (list of {id, text}, each memory of words once).
CALL () {
  OPTIONAL MATCH (s:Space {id: $space})
  RETURN coalesce(s.memories_version, '') AS version
}
CALL (version) {
  WITH CASE WHEN version <> '' AND version = $known THEN null ELSE $space END AS counting
  MATCH (m:Memory) WHERE m.space = counting
  RETURN count(m) AS counted
}
WITH version, CASE WHEN version <> '' AND version = $known THEN $known_n ELSE counted END AS n
CALL () {
  UNWIND $ids AS id
  MATCH (o:Observation {space: $space, id: id})
  USING INDEX o:Observation(space, id)
  MATCH (m:Memory)-[:DERIVED_FROM]->(o)
  WHERE m.space = $space
  WITH m, collect(o.id) AS from
  ORDER BY m.id
  RETURN collect({m: m {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role,
                        .participants, .created_at, .updated_at, .t_start, .t_end, .last_accessed_at,
                        .access_count, .valid_until, .superseded_at, .learned_at, .last_said_at, .embedding,
                        sources: CASE WHEN COUNT { (m)-[:DERIVED_FROM]->() } <= $inline_sources THEN m.sources END},
                   from: from}) AS recent
}
CALL (n) {
  UNWIND $terms AS term
  CALL (term) {
    CALL db.index.fulltext.queryNodes('memory_text_space_key', term.lucene, $options) YIELD node
    RETURN collect(CASE WHEN node.space = $space THEN node END) AS docs
  }
  WITH term, docs, $common_at > 0 AND n > $common_at AND size(docs) >= $common_at AS common
  RETURN collect({word: term.word, common: common, ids: CASE WHEN common THEN [] ELSE [m IN docs | m.id] END}) AS words,
         collect(CASE WHEN common THEN [] ELSE docs END) AS docs
}
CALL (docs) {
  UNWIND docs AS list
  UNWIND list AS m
  WITH DISTINCT m
  RETURN collect({id: m.id, text: toLower(coalesce(m.name, '') + ' ' + coalesce(m.content, '') + ' ' + reduce(k = '', x IN coalesce(m.keywords, []) | k + ' ' + x))}) AS texts
}
RETURN n, version, recent, words, texts
