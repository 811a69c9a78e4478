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

// keywordFetch bounds the memories read per word: in a space of more than keywordFetch
// memories, a word matching at least keywordFetch of them is common and adds nothing to
// the write path's keyword ranking (KeywordStats). 0: no bound, no common word. A
// variable so that tests can shrink it.
var keywordFetch int64 = 2000

// writeFromIndex lets the write path take its postings from the in-memory keyword index
// (keywordContext). A variable so that tests can keep it to the statement.
var writeFromIndex = true

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
// per word asked, the memories matching it, or, for a common word (one matching at least
// keywordFetch memories of a space of more), none: it is in Common and ranks nothing.
// Reading every match of a common word would cost the write path its space's size, and
// the full-text index's best keywordFetch of them are not what the in-memory index would
// give, so both leave it out and rank alike (a common word's idf is at most
// ln(1 + N/keywordFetch)).
type KeywordStats struct {
	N      int64
	Words  map[string][]KeywordPosting
	Common map[string]bool
}

// IsCommonWord reports whether a word matching matches of a space's n memories is
// common (KeywordStats).
func IsCommonWord(n int64, matches int) bool {
	return keywordFetch > 0 && n > keywordFetch && int64(matches) >= keywordFetch
}

// KeywordWords is the words of text the keyword search asks about (queryWords), each
// once, at most maxLuceneTerms.
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
	lists := make([][]KeywordPosting, len(words))
	idfs := make([]float64, len(words))
	total := 0
	for j, w := range words {
		ps := postings(w)
		lists[j], idfs[j] = ps, math.Log(1+(float64(n)-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		total += len(ps)
	}
	// Sized once for every posting (growing them took a third of the time), and each
	// posting's doc looked up once.
	docs := make([]doc, 0, total)
	at := make(map[string]int, total) // memory id → its doc
	of := make([]int, 0, total)       // each posting's doc, in the order of lists
	for _, ps := range lists {
		for _, p := range ps {
			i, ok := at[p.ID]
			if !ok {
				i = len(docs)
				at[p.ID] = i
				docs = append(docs, doc{id: p.ID, dl: p.DL})
			}
			of = append(of, i)
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
	x := 0
	for j, ps := range lists {
		for _, p := range ps {
			d := &docs[of[x]]
			x++
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
// the state read (else the statement runs again with the words, and the index is read
// again in the background for the next run, as the read path does). Both give the same
// postings: the index matches as the full-text index does, and a word with more
// matches than the statement reads is common on both (KeywordStats).
func (s *Store) keywordContext(ctx context.Context, tx neo4j.ManagedTransaction, space string, texts []string, recentFrom []string) (SpaceState, []DerivedMemory, KeywordStats, error) {
	terms := spaceTerms(space, texts)
	if terms == nil {
		terms = []map[string]any{}
	}
	if held, _ := s.texts.held(space); len(terms) > 0 && held != "" && writeFromIndex {
		state, recent, stats, err := runContext(ctx, tx, space, []map[string]any{}, recentFrom, s.knownState(space))
		if err != nil {
			return state, recent, stats, err
		}
		if t := s.texts.current(space, state); t != nil {
			return state, recent, t.postings(terms), nil
		}
	}
	state, recent, stats, err := runContext(ctx, tx, space, terms, recentFrom, s.knownState(space))
	if err == nil && len(terms) > 0 && state.Version != "" && writeFromIndex {
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
// keywordFetch holds this space's matches only (spaceClause), so every word but the
// common ones (KeywordStats) gets every match, as the in-memory index gives them.
func runContext(ctx context.Context, tx neo4j.ManagedTransaction, space string, terms []map[string]any, recentFrom []string, known SpaceState) (SpaceState, []DerivedMemory, KeywordStats, error) {
	stats := KeywordStats{Words: map[string][]KeywordPosting{}, Common: map[string]bool{}}
	params := map[string]any{
		"space": space, "ids": orEmpty(recentFrom), "terms": terms, "options": fullTextOptions(int(keywordFetch)),
		"common_at": max(keywordFetch, 0), "known": known.Version, "known_n": known.N,
		"inline_sources": InlineSources,
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
		if common, _ := w["common"].(bool); common {
			stats.Common[word] = true
			continue
		}
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
// posting as the statement's text gives it, or none for a common word.
func (t *spaceTexts) postings(terms []map[string]any) KeywordStats {
	stats := KeywordStats{N: t.state.N, Words: make(map[string][]KeywordPosting, len(terms)), Common: map[string]bool{}}
	for _, term := range terms {
		word := term["word"].(string)
		if len(analyze(word)) == 0 && IsCommonWord(t.state.N, len(t.ids)-len(t.dead)) {
			stats.Common[word] = true // a stop word matches every memory: not listed to count them
			continue
		}
		matches := t.matching(word, len(t.ids))
		if IsCommonWord(t.state.N, len(matches)) {
			stats.Common[word] = true
			continue
		}
		ps := make([]KeywordPosting, 0, len(matches))
		for _, i := range matches {
			ps = append(ps, KeywordPosting{ID: t.ids[i], TF: termFrequency(t.texts[i], word), DL: t.splits[i]}) // posting's
		}
		stats.Words[word] = ps
	}
	return stats
}

// written records the writes of one committed transaction to space in its keyword
// index, as vectorCache.written does for embeddings: before is the state its lock read,
// after the state its writes left, nodes the stored memories its decisions were made on
// (every memory it merged into that it did not add). An index of before gets the added
// memories and the merged ones' new texts and holds after; any other is forgotten. (A
// merge keeps, without a new name and new content, a memory's name and content: nodes
// give them.)
// The write path reads its postings from the index and the read path its seeds
// (SeedByFullText), so that neither runs its statement (memory_run_context.cypher with
// each word's matches, seed_fulltext.cypher: 70–245 ms at 100,000 memories) while the
// index is read again (seconds). The new index shares the old one's lists (with), so a write
// costs what it changed, not the space's size.
func (c *keywordCache) written(space string, before, after SpaceState, ins []ObservationIntegration, nodes map[string]realm.Node) {
	c.mu.Lock()
	old := c.spaces[space]
	c.reading.record(space, ownWrite{before, after, ins, nodes})
	c.mu.Unlock()
	if old == nil {
		return
	}
	// A second index made from old would append where the first did: none is.
	if old.state != before || after.Version == "" || !old.next.CompareAndSwap(false, true) {
		c.drop(space)
		return
	}
	t, ok := old.with(ins, nodes)
	if !ok {
		c.drop(space)
		return
	}
	t.state = after
	c.replace(space, old, t)
}

// replace puts t as space's index in place of old, unless old was read again or dropped
// meanwhile.
func (c *keywordCache) replace(space string, old, t *spaceTexts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.spaces[space] == old {
		c.putLocked(space, t)
	}
}

// with is an index like t holding the writes of ins: each added memory indexed after the
// others (again, when t holds it), each merged one indexed again, at a new position, with the text the merge leaves
// it (integration_write: the new name and content unless none, the complete keyword list), its old
// position dead. ok is false when a merged memory is neither in t, in nodes nor added
// before the merge. It shares t's slices and lists, appending past their lengths (t.next
// says no other index was made from t) and copying a list only to take a memory out.
func (t *spaceTexts) with(ins []ObservationIntegration, nodes map[string]realm.Node) (u *spaceTexts, ok bool) {
	u = t.successor()
	written := map[string]realm.Node{} // the memories written so far, as they are left
	for _, in := range ins {
		for _, n := range in.Adds {
			if i, ok := u.where.at[n.ID]; ok { // a read that saw this write (caughtUp)
				u.remove(i, &n)
			}
			u.add(n)
			written[n.ID] = n
		}
		for _, m := range in.Merges {
			i, inIndex := u.where.at[m.ID]
			n, known := written[m.ID]
			if !known {
				n, known = nodes[m.ID]
			}
			if !inIndex || !known {
				return nil, false
			}
			u.remove(i, &n)
			if m.Name != "" {
				n.Name = m.Name
			}
			if m.Content != "" {
				n.Content = m.Content
			}
			n.Keywords = orEmpty(m.Keywords)
			if m.Aliases != nil {
				n.Aliases = m.Aliases
			}
			u.add(n)
			written[m.ID] = n
		}
	}
	return u.settled(), true
}

// successor is an index holding what t holds, sharing its slices and lists, for a follow
// to change (t.next is set: no other is made from t).
func (t *spaceTexts) successor() *spaceTexts {
	u := &spaceTexts{
		ids: t.ids, texts: t.texts, dls: t.dls, splits: t.splits, types: t.types, start: t.start, end: t.end,
		terms: t.terms, runs: t.runs, runHits: t.runHits, dead: t.dead, where: t.positions(),
		recentTerms: maps.Clone(t.recentTerms), recentHits: maps.Clone(t.recentHits),
	}
	if u.recentTerms == nil {
		u.recentTerms = map[string][]int32{}
	}
	if u.recentHits == nil {
		u.recentHits = map[int32][]runHit{}
	}
	return u
}

// deletedFollowMax is the most memories a deletion may take out or rewrite for the index
// to follow it.
const deletedFollowMax = 64

// textRewrite is a memory whose name, content or keywords a deletion rewrote
// (DeleteObservation: an entity's names, an episode's text): as it was, and as it is left.
// Its type and times stay.
type textRewrite struct {
	was, now realm.Node
}

// deleted records this process's deletion of the memories ids from the space
// (memory_delete.cypher, observation_delete_*.cypher, which moved the space's
// memories_version from before to after), and its rewrite of others' texts, in its
// keyword index: an index of before loses the deleted memories, holds the rewritten ones
// with their new texts, and holds after; any other is forgotten.
func (c *keywordCache) deleted(space string, ids []string, rewritten []textRewrite, before, after string) {
	c.mu.Lock()
	old := c.spaces[space]
	c.mu.Unlock()
	if old == nil {
		return
	}
	// Each removal may look at every term of the index (remove): many are left to a read.
	if before == "" || after == "" || old.state.Version != before || len(ids)+len(rewritten) > deletedFollowMax || !old.next.CompareAndSwap(false, true) {
		c.drop(space)
		return
	}
	u := old.successor()
	for _, id := range ids {
		i, ok := u.where.at[id]
		if !ok { // a memory it does not hold: not the index of before
			c.drop(space)
			return
		}
		u.remove(i, nil)
	}
	for _, r := range rewritten {
		i, ok := u.where.at[r.now.ID]
		if !ok {
			c.drop(space)
			return
		}
		n := r.now
		n.Type, n.TStart, n.TEnd = u.types[i], timeOrNil(u.start[i]), timeOrNil(u.end[i])
		u.remove(i, &r.was)
		u.add(n)
	}
	u = u.settled()
	u.state = SpaceState{N: old.state.N - int64(len(ids)), Version: after}
	c.replace(space, old, u)
}

// positions is where t holds each live memory and each run, made at the first follow and
// then carried along (t.next: t is not followed again).
func (t *spaceTexts) positions() *textPositions {
	if t.where != nil {
		return t.where
	}
	live := t.live()
	p := &textPositions{at: make(map[string]int32, len(t.ids)), runAt: make(map[string]int32, len(t.runs))}
	for i, id := range t.ids {
		if live == nil || live[i] {
			p.at[id] = int32(i)
		}
	}
	for r, run := range t.runs {
		p.runAt[run] = int32(r)
	}
	return p
}

// timeOrNil is t, nil when zero (timeOrZero's inverse).
func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func timeOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// add indexes n at a new position, after the others, as keywordCache.load does. The
// position is past every list's last, so each list it joins stays ascending by appending.
func (t *spaceTexts) add(n realm.Node) {
	i := int32(len(t.ids))
	t.where.at[n.ID] = i
	start, end := timeOrZero(n.TStart), timeOrZero(n.TEnd)
	if end.IsZero() {
		end = start
	}
	text := memoryText(n.Name, n.Content, n.Keywords)
	t.ids, t.texts = append(t.ids, n.ID), append(t.texts, text)
	t.dls, t.splits = append(t.dls, float64(WordCount(n.Name, n.Content, n.Keywords))), append(t.splits, float64(spaceSplitWords(text)))
	t.types, t.start, t.end = append(t.types, n.Type), append(t.start, start), append(t.end, end)
	for _, term := range memoryTerms(n) {
		t.recentTerms[term] = append(t.term(term), i)
	}
	for run, count := range runCounts(text) {
		r := t.runIndex(run, t.where.runAt)
		t.recentHits[r] = append(t.hits(r), runHit{i, count})
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

// remove takes memory i out of the lists of its terms (n's, when n is the memory i
// indexes; else every list is looked at) and makes its position dead. Its runs' hits
// stay: wordCounts is only read for the memories a term matches.
func (t *spaceTexts) remove(i int32, n *realm.Node) {
	var terms []string
	if n != nil && memoryText(n.Name, n.Content, n.Keywords) == t.texts[i] {
		terms = memoryTerms(*n)
	} else {
		t.eachTerm(func(term string, _ []int32) { terms = append(terms, term) })
	}
	for _, term := range terms {
		list := t.term(term)
		if j, found := slices.BinarySearch(list, i); found {
			t.recentTerms[term] = slices.Delete(slices.Clone(list), j, j+1)
		}
	}
	t.dead = append(t.dead, i)
	if t.where.at[t.ids[i]] == i {
		delete(t.where.at, t.ids[i])
	}
}

// eachTerm calls fn with each term some memory holds and its list.
func (t *spaceTexts) eachTerm(fn func(term string, list []int32)) {
	for term, list := range t.terms {
		if _, ok := t.recentTerms[term]; !ok {
			fn(term, list)
		}
	}
	for term, list := range t.recentTerms {
		if len(list) > 0 {
			fn(term, list)
		}
	}
}

// settled is t with its changed lists merged into the maps behind them once they hold
// more than an eighth of those (each follow copies the small maps in front), and without
// dead positions once they are more than a quarter of all: each costs a pass over the
// index, at most once per that many changes.
func (t *spaceTexts) settled() *spaceTexts {
	if len(t.dead) > len(t.ids)/4+settleMin {
		return t.compacted()
	}
	if len(t.recentTerms) > len(t.terms)/8+settleMin {
		terms := maps.Clone(t.terms)
		for term, list := range t.recentTerms {
			if len(list) == 0 {
				delete(terms, term)
			} else {
				terms[term] = list
			}
		}
		t.terms, t.recentTerms = terms, map[string][]int32{}
	}
	if len(t.recentHits) > len(t.runHits)/8+settleMin {
		hits := slices.Clone(t.runHits)
		for r, list := range t.recentHits {
			hits[r] = list
		}
		t.runHits, t.recentHits = hits, map[int32][]runHit{}
	}
	return t
}

// settleMin is added to the bars of settled: a small index waits for that many changes.
// A variable so that tests can move it.
var settleMin = 64

// compacted is t without its dead positions: the live memories in the same order (so
// every list stays ascending), the runs no live memory holds left out.
func (t *spaceTexts) compacted() *spaceTexts {
	live := t.live()
	to := make([]int32, len(t.ids)) // old position → new
	u := &spaceTexts{state: t.state, terms: map[string][]int32{}, recentTerms: map[string][]int32{}, recentHits: map[int32][]runHit{},
		where: &textPositions{at: make(map[string]int32, len(t.ids)-len(t.dead)), runAt: map[string]int32{}}}
	for i, id := range t.ids {
		if live != nil && !live[i] {
			continue
		}
		to[i] = int32(len(u.ids))
		u.where.at[id] = to[i]
		u.ids, u.texts, u.dls, u.splits = append(u.ids, id), append(u.texts, t.texts[i]), append(u.dls, t.dls[i]), append(u.splits, t.splits[i])
		u.types, u.start, u.end = append(u.types, t.types[i]), append(u.start, t.start[i]), append(u.end, t.end[i])
	}
	t.eachTerm(func(term string, list []int32) {
		moved := make([]int32, len(list))
		for j, i := range list {
			moved[j] = to[i]
		}
		u.terms[term] = moved
	})
	for r, run := range t.runs {
		var hits []runHit
		for _, h := range t.hits(int32(r)) {
			if live == nil || live[h.i] {
				hits = append(hits, runHit{to[h.i], h.n})
			}
		}
		if len(hits) > 0 {
			u.where.runAt[run] = int32(len(u.runs))
			u.runs, u.runHits = append(u.runs, run), append(u.runHits, hits)
		}
	}
	return u
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
