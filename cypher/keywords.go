package cypher

import (
	"context"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// The keyword half of N_sim in the write path (REALM.md §2 step 3): BM25 from the
// space's own statistics, as the read path's seeds score (seed_fulltext.cypher), so a
// space's neighbourhoods do not depend on what other spaces hold. The statement returns
// the postings of each word (memory_run_context.cypher) and Go ranks them, so that
// a run of observations ranks the memories it writes among the stored ones exactly as
// the store would once they are written (construction's run overlay).

// keywordFetch bounds the memories read per word: a word matching more of a space's
// memories is scored from the index's best keywordFetch of them. A variable so that
// tests can shrink it.
var keywordFetch int64 = 2000

// keywordSlack is how many memories past K each candidate's stored keyword matches are
// read with: a run's own memories change the words' statistics, and so the order of the
// stored matches a little.
const keywordSlack = 8

// KeywordPosting is a memory matching a word: the word's count in its text (TF, at least
// 1) and the text's length in words (DL).
type KeywordPosting struct {
	ID     string
	TF, DL float64
}

// KeywordStats is what the keyword search read of a space: its number of memories and,
// per word asked, the memories matching it.
type KeywordStats struct {
	N     int64
	Words map[string][]KeywordPosting
}

// KeywordWords is the words of text the keyword search asks about: lower-cased, without
// the punctuation around them, each once, at most maxLuceneTerms.
func KeywordWords(text string) []string {
	var out []string
	for _, t := range spaceTerms("", []string{text}) {
		out = append(out, t["word"].(string))
	}
	return out
}

// IsIndexStopword reports whether the full-text index's analyzer drops word: it matches
// no memory.
func IsIndexStopword(word string) bool { return slices.Contains(englishStopwords, word) }

// TextPosting is n's posting for word as memory_run_context.cypher computes it.
func TextPosting(n realm.Node, word string) KeywordPosting {
	return posting(n.ID, memoryText(n.Name, n.Content, n.Keywords), word)
}

// posting is the posting for word of the memory id whose lower-cased text is text: the
// word's count in it (at least 1: the index matched it, stemmed) and its words (split
// on single spaces), as seed_fulltext.cypher counts them.
func posting(id, text, word string) KeywordPosting {
	return KeywordPosting{ID: id, TF: termFrequency(text, word), DL: float64(spaceSplitWords(text))}
}

// spaceSplitWords is how many of the parts of text split on single spaces are not empty
// (as strings.Split counts them, without building them: most of a run's postings' time).
func spaceSplitWords(text string) int {
	n, in := 0, false
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == ' ':
			in = false
		case !in:
			in = true
			n++
		}
	}
	return n
}

// termFrequency is word's count in text as seed_fulltext.cypher counts it: as a
// substring, at least 1 (the index matched it, stemmed).
func termFrequency(text, word string) float64 {
	if n := strings.Count(text, word); n > 0 && word != "" {
		return float64(n)
	}
	return 1
}

// RankKeywords returns the ids of the k memories matching words best, best first, ties by
// id: BM25 summed over the words a memory matches (k1 = 1.2, b = 0.75; idf = ln(1 + (N −
// n + 0.5) / (n + 0.5)), n the memories matching the word; avgdl the mean length of the
// memories matching any of words), as seed_fulltext.cypher scores.
func RankKeywords(n int64, words []string, postings func(word string) []KeywordPosting, k int) []string {
	type doc struct {
		id    string
		dl    float64
		score float64
	}
	var docs []doc
	at := map[string]int{} // memory id → its doc
	lists := make([][]KeywordPosting, len(words))
	idfs := make([]float64, len(words))
	for j, w := range words {
		ps := postings(w)
		lists[j], idfs[j] = ps, math.Log(1+(float64(n)-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			if _, ok := at[p.ID]; !ok {
				at[p.ID] = len(docs)
				docs = append(docs, doc{id: p.ID, dl: p.DL})
			}
		}
	}
	if len(docs) == 0 || k <= 0 {
		return nil
	}
	avgdl := 0.0
	for _, d := range docs {
		avgdl += d.dl
	}
	avgdl /= float64(len(docs))
	// A memory's score sums its words' parts in the order of words.
	for j, ps := range lists {
		for _, p := range ps {
			d := &docs[at[p.ID]]
			d.score += idfs[j] * p.TF * 2.2 / (p.TF + 1.2*(0.25+0.75*d.dl/avgdl))
		}
	}
	// The k best, kept in order as they come (no sort of every match).
	better := func(a, b doc) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return a.id < b.id
	}
	best := make([]doc, 0, k+1)
	for _, d := range docs {
		if len(best) == k && !better(d, best[k-1]) {
			continue
		}
		i := len(best)
		for i > 0 && better(d, best[i-1]) {
			i--
		}
		best = slices.Insert(best, i, d)
		best = best[:min(len(best), k)]
	}
	out := make([]string, len(best))
	for i, d := range best {
		out[i] = d.id
	}
	return out
}

// keywordContext reads, in one statement (memory_run_context.cypher), the space's
// fingerprint, the memories derived from the observations recentFrom, and the keyword
// postings of every word of texts. When this process holds the space's in-memory keyword
// index (keywordindex.go), kept current by the write path's own writes (written), the
// statement skips the full-text index and the postings come from the index, if it is of
// the state read (else the statement runs again with the words). The index matches as
// the full-text index does and returns every match, so it gives the statement's postings
// only for a space of at most keywordFetch memories: a larger one is always read from
// the full-text index.
func (s *Store) keywordContext(ctx context.Context, tx neo4j.ManagedTransaction, space string, texts []string, recentFrom []string) (SpaceState, []DerivedMemory, KeywordStats, error) {
	terms := spaceTerms(space, texts)
	if terms == nil {
		terms = []map[string]any{}
	}
	if held, n := s.texts.held(space); len(terms) > 0 && held != "" && n <= keywordFetch {
		state, recent, stats, err := runContext(ctx, tx, space, []map[string]any{}, recentFrom, s.knownState(space))
		if err != nil {
			return state, recent, stats, err
		}
		if t := s.texts.current(space, state); t != nil && state.N <= keywordFetch {
			return state, recent, t.postings(terms), nil
		}
	}
	state, recent, stats, err := runContext(ctx, tx, space, terms, recentFrom, s.knownState(space))
	if err == nil && len(terms) > 0 && state.Version != "" && state.N <= keywordFetch {
		s.texts.refresh(s, space) // for the next run of this space
	}
	return state, recent, stats, err
}

// knownState is a state this process read the space at (its keyword index's, else its
// embeddings'), whose count the statements take instead of counting when the space's
// version is still that one; none when it holds neither.
func (s *Store) knownState(space string) SpaceState {
	if version, n := s.texts.held(space); version != "" {
		return SpaceState{N: n, Version: version}
	}
	return s.vectors.held(space)
}

// runContext runs memory_run_context.cypher for terms (spaceTerms; none: no postings),
// counting the space's memories unless its version is known's. Each word's fetch of
// keywordFetch holds this space's matches only (spaceClause), so a space of at most
// keywordFetch memories gets every match of each word, as its in-memory index gives them.
func runContext(ctx context.Context, tx neo4j.ManagedTransaction, space string, terms []map[string]any, recentFrom []string, known SpaceState) (SpaceState, []DerivedMemory, KeywordStats, error) {
	stats := KeywordStats{Words: map[string][]KeywordPosting{}}
	params := map[string]any{
		"space": space, "ids": orEmpty(recentFrom), "terms": terms, "options": fullTextOptions(int(keywordFetch)),
		"known": known.Version, "known_n": known.N,
	}
	recs, err := collect(ctx, tx, qMemoryRunContext, params)
	if err != nil || len(recs) == 0 {
		return SpaceState{}, nil, stats, err
	}
	r := recs[0]
	state := spaceStateOf(r)
	stats.N = state.N
	v, _ := r.Get("recent")
	var recent []DerivedMemory
	for _, item := range asList(v) {
		m, _ := item.(map[string]any)
		p, _ := m["m"].(map[string]any)
		recent = append(recent, DerivedMemory{Node: nodeOf(p), From: stringList(m["from"])})
	}
	lowered := map[string]string{} // memory id → its lower-cased text
	v, _ = r.Get("texts")
	for _, item := range asList(v) {
		m, _ := item.(map[string]any)
		lowered[propString(m, "id")] = propString(m, "text")
	}
	v, _ = r.Get("words")
	for _, item := range asList(v) {
		w, _ := item.(map[string]any)
		word := propString(w, "word")
		var ps []KeywordPosting
		for _, id := range stringList(w["ids"]) {
			ps = append(ps, posting(id, lowered[id], word))
		}
		stats.Words[word] = ps
	}
	return state, recent, stats, nil
}

// postings is what memory_run_context.cypher reads of the full-text index for terms
// (spaceTerms), from the index: per word, the memories matching it, each with its
// posting as the statement's text gives it.
func (t *spaceTexts) postings(terms []map[string]any) KeywordStats {
	stats := KeywordStats{N: t.state.N, Words: make(map[string][]KeywordPosting, len(terms))}
	for _, term := range terms {
		word := term["word"].(string)
		var ps []KeywordPosting
		for _, i := range t.matching(word, len(t.ids)) {
			ps = append(ps, KeywordPosting{ID: t.ids[i], TF: termFrequency(t.texts[i], word), DL: t.splits[i]}) // posting's
		}
		stats.Words[word] = ps
	}
	return stats
}

// written records the writes of one committed transaction to space in its keyword
// index, as vectorCache.written does for embeddings: before is the state its lock read,
// after the state its writes left, nodes the stored memories its decisions were made on
// (every memory it merged into that it did not add). An index of before, of a space of
// at most keywordFetch memories after the writes, gets the added memories and the merged
// ones' new texts and holds after; any other is forgotten. (A merge keeps a memory's name
// and, without new content, its content: nodes give them.)
func (c *keywordCache) written(space string, before, after SpaceState, ins []ObservationIntegration, nodes map[string]realm.Node) {
	c.mu.Lock()
	old := c.spaces[space]
	c.mu.Unlock()
	if old == nil {
		return
	}
	if old.state != before || after.Version == "" || after.N > keywordFetch {
		c.drop(space)
		return
	}
	t, ok := old.with(ins, nodes)
	if !ok {
		c.drop(space)
		return
	}
	t.state = after
	c.put(space, t)
}

// with is a copy of t holding the writes of ins: each added memory indexed after the
// others, each merged one indexed again with the text the merge leaves it (integration_write:
// the new content unless none, the complete keyword list). ok is false when a merged
// memory is neither in t, in nodes nor added before the merge.
func (t *spaceTexts) with(ins []ObservationIntegration, nodes map[string]realm.Node) (u *spaceTexts, ok bool) {
	u = &spaceTexts{
		ids: slices.Clone(t.ids), texts: slices.Clone(t.texts), dls: slices.Clone(t.dls), splits: slices.Clone(t.splits), types: slices.Clone(t.types),
		start: slices.Clone(t.start), end: slices.Clone(t.end), terms: maps.Clone(t.terms),
		runs: slices.Clone(t.runs), runHits: slices.Clone(t.runHits),
	}
	at := make(map[string]int32, len(u.ids))
	for i, id := range u.ids {
		at[id] = int32(i)
	}
	runAt := make(map[string]int32, len(u.runs))
	for i, run := range u.runs {
		runAt[run] = int32(i)
	}
	written := map[string]realm.Node{} // the memories written so far, as they are left
	for _, in := range ins {
		for _, n := range in.Adds {
			i := int32(len(u.ids))
			at[n.ID] = i
			start, end := timeOrZero(n.TStart), timeOrZero(n.TEnd)
			if end.IsZero() {
				end = start
			}
			u.ids, u.texts, u.dls, u.splits = append(u.ids, n.ID), append(u.texts, ""), append(u.dls, 0), append(u.splits, 0)
			u.types, u.start, u.end = append(u.types, n.Type), append(u.start, start), append(u.end, end)
			u.index(i, n, runAt)
			written[n.ID] = n
		}
		for _, m := range in.Merges {
			i, inIndex := at[m.ID]
			n, known := written[m.ID]
			if !known {
				n, known = nodes[m.ID]
			}
			if !inIndex || !known {
				return nil, false
			}
			u.unindex(i)
			if m.Content != "" {
				n.Content = m.Content
			}
			n.Keywords = orEmpty(m.Keywords)
			u.index(i, n, runAt)
			written[m.ID] = n
		}
	}
	return u, true
}

func timeOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// index sets memory i's text and length to n's and adds i to the postings of its terms
// and runs, as keywordCache.load does; the lists it changes are copied first (t's may be
// shared with the index it was copied from).
func (t *spaceTexts) index(i int32, n realm.Node, runAt map[string]int32) {
	t.texts[i] = memoryText(n.Name, n.Content, n.Keywords)
	t.dls[i] = float64(WordCount(n.Name, n.Content, n.Keywords))
	t.splits[i] = float64(spaceSplitWords(t.texts[i]))
	for _, term := range memoryTerms(n) {
		list := t.terms[term]
		j, _ := slices.BinarySearch(list, i)
		t.terms[term] = slices.Insert(slices.Clone(list), j, i)
	}
	for run, count := range runCounts(t.texts[i]) {
		r := t.runIndex(run, runAt)
		t.runHits[r] = append(slices.Clip(t.runHits[r]), runHit{i, count})
	}
}

// runIndex is the position of run in t.runs, appended there (with no hits) when new.
func (t *spaceTexts) runIndex(run string, runAt map[string]int32) int32 {
	r, ok := runAt[run]
	if !ok {
		r = int32(len(t.runs))
		runAt[run] = r
		t.runs = append(t.runs, run)
		t.runHits = append(t.runHits, nil)
	}
	return r
}

// unindex removes memory i from the postings of every term and run that holds it.
func (t *spaceTexts) unindex(i int32) {
	for term, list := range t.terms {
		if _, found := slices.BinarySearch(list, i); !found {
			continue
		}
		if len(list) == 1 {
			delete(t.terms, term)
			continue
		}
		t.terms[term] = slices.DeleteFunc(slices.Clone(list), func(j int32) bool { return j == i })
	}
	for r, hits := range t.runHits {
		if slices.ContainsFunc(hits, func(h runHit) bool { return h.i == i }) {
			t.runHits[r] = slices.DeleteFunc(slices.Clone(hits), func(h runHit) bool { return h.i == i })
		}
	}
}

// memoryTerms is the analyzer's terms of a memory's name, content and keywords, each
// once, as keywordCache.load indexes them.
func memoryTerms(n realm.Node) []string {
	var out []string
	seen := map[string]bool{}
	for _, field := range append([]string{n.Name, n.Content}, n.Keywords...) {
		for _, term := range analyze(field) {
			if !seen[term] {
				seen[term] = true
				out = append(out, term)
			}
		}
	}
	return out
}

// runCounts is how many times each run of letters and digits occurs in text.
func runCounts(text string) map[string]int32 {
	counts := map[string]int32{}
	for _, run := range strings.FieldsFunc(text, notAlphanumeric) {
		counts[run]++
	}
	return counts
}
