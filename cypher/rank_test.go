package cypher

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRankKeywordsKeepsTheBest: RankKeywords, which keeps the k best as they come, returns
// the first k of every matching memory sorted by BM25 (the formula as its comment gives it)
// and then by id, on random postings with many equal scores (small integer tf and dl).
func TestRankKeywordsKeepsTheBest(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 5))
	for trial := range 500 {
		n := int64(50 + r.IntN(300))
		lists := map[string][]KeywordPosting{}
		var words []string
		for w := range 1 + r.IntN(4) {
			word := fmt.Sprint("w", w)
			words = append(words, word)
			for d := range n - 10 {
				if r.IntN(3) == 0 {
					lists[word] = append(lists[word], KeywordPosting{ID: fmt.Sprintf("m%03d", d), TF: float64(1 + r.IntN(2)), DL: float64(5 + d%4)})
				}
			}
		}
		k := r.IntN(25)
		got := RankKeywords(n, words, func(w string) []KeywordPosting { return lists[w] }, k)
		if want := rankBySorting(n, words, lists, k); !slices.Equal(got, want) {
			t.Fatalf("trial %d, k %d: %v, want %v", trial, k, got, want)
		}
	}
}

// rankBySorting scores every memory matching words by BM25 and sorts them all.
func rankBySorting(n int64, words []string, lists map[string][]KeywordPosting, k int) []string {
	dl, score := map[string]float64{}, map[string]float64{}
	for _, w := range words {
		for _, p := range lists[w] {
			if _, ok := dl[p.ID]; !ok {
				dl[p.ID] = p.DL
			}
		}
	}
	avgdl := 0.0
	for _, d := range dl {
		avgdl += d
	}
	avgdl /= float64(len(dl))
	for _, w := range words {
		ps := lists[w]
		idf := math.Log(1 + (float64(n)-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			score[p.ID] += idf * p.TF * 2.2 / (p.TF + 1.2*(0.25+0.75*dl[p.ID]/avgdl))
		}
	}
	ids := slices.Collect(func(yield func(string) bool) {
		for id := range score {
			if !yield(id) {
				return
			}
		}
	})
	slices.SortFunc(ids, func(a, b string) int {
		if c := cmp.Compare(score[b], score[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if k <= 0 || len(ids) == 0 {
		return nil
	}
	return ids[:min(k, len(ids))]
}

// BenchmarkRankKeywords: the write path ranks each candidate's keyword matches twice (the
// stored ones, then with the run's own memories): a candidate of ten words against a space
// of 1,000 memories, common words matching most of them.
func BenchmarkRankKeywords(b *testing.B) {
	const n = 1000
	sizes := []int{700, 450, 300, 120, 60, 25, 10, 4, 2, 1}
	words := make([]string, len(sizes))
	lists := map[string][]KeywordPosting{}
	for j, size := range sizes {
		words[j] = fmt.Sprintf("w%d", j)
		for i := range size {
			d := (i*7919 + j*104729) % n
			lists[words[j]] = append(lists[words[j]], KeywordPosting{ID: fmt.Sprintf("memory-%08d", d), TF: float64(1 + d%3), DL: float64(8 + d%40)})
		}
	}
	postings := func(w string) []KeywordPosting { return lists[w] }
	for b.Loop() {
		RankKeywords(n, words, postings, 8)
	}
}
