package cypher

import (
	"context"
	"math"
	"slices"
	"strings"

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
// memories is scored from the index's best keywordFetch of them.
const keywordFetch = 2000

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
	dl := 0
	for _, w := range strings.Split(text, " ") {
		if w != "" {
			dl++
		}
	}
	return KeywordPosting{ID: id, TF: termFrequency(text, word), DL: float64(dl)}
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
		dl    float64
		parts [][2]float64 // {idf, tf}
	}
	docs := map[string]*doc{}
	for _, w := range words {
		ps := postings(w)
		idf := math.Log(1 + (float64(n)-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			d := docs[p.ID]
			if d == nil {
				d = &doc{dl: p.DL}
				docs[p.ID] = d
			}
			d.parts = append(d.parts, [2]float64{idf, p.TF})
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
	type scored struct {
		id    string
		score float64
	}
	all := make([]scored, 0, len(docs))
	for id, d := range docs {
		s := 0.0
		for _, p := range d.parts {
			s += p[0] * p[1] * 2.2 / (p[1] + 1.2*(0.25+0.75*d.dl/avgdl))
		}
		all = append(all, scored{id, s})
	}
	slices.SortFunc(all, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(a.id, b.id)
	})
	out := make([]string, 0, k)
	for _, s := range all[:min(k, len(all))] {
		out = append(out, s.id)
	}
	return out
}

// keywordContext reads, in one statement (memory_run_context.cypher), the space's
// fingerprint, the memories derived from the observations recentFrom, and the keyword
// postings of every word of texts.
func keywordContext(ctx context.Context, tx neo4j.ManagedTransaction, space string, texts []string, recentFrom []string) (SpaceState, []DerivedMemory, KeywordStats, error) {
	stats := KeywordStats{Words: map[string][]KeywordPosting{}}
	terms := spaceTerms(space, texts)
	if terms == nil {
		terms = []map[string]any{}
	}
	recs, err := collect(ctx, tx, qMemoryRunContext, map[string]any{
		"space": space, "ids": orEmpty(recentFrom), "terms": terms, "options": fullTextOptions(keywordFetch),
	})
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
