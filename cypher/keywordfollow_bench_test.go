package cypher

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
)

// BenchmarkKeywordFollow: one followed write (an observation adding a memory and merging
// into a speaker's entity named in most memories) to the keyword index of a space of
// 100,000 memories over a vocabulary of 4,500 words (as the 100k bench space's: 4,514
// terms, 1.05 million postings).
func BenchmarkKeywordFollow(b *testing.B) {
	const n, vocabulary = 100_000, 4500
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string { return fmt.Sprintf("w%d", rng.IntN(vocabulary)) }
	t := &spaceTexts{terms: map[string][]int32{}}
	runAt := map[string]int32{}
	speaker := realm.Node{ID: "m0", Type: realm.Entity, Name: "Caroline", Content: "Caroline, the speaker", Keywords: []string{"speaker"}}
	for i := range n {
		node := speaker
		if i > 0 {
			var words []string
			for range 10 {
				words = append(words, word())
			}
			node = realm.Node{ID: fmt.Sprint("m", i), Type: realm.Fact, Name: "Caroline", Content: strings.Join(words, " ")}
		}
		text := memoryText(node.Name, node.Content, node.Keywords)
		t.ids, t.texts = append(t.ids, node.ID), append(t.texts, text)
		t.dls, t.splits = append(t.dls, float64(WordCount(node.Name, node.Content, node.Keywords))), append(t.splits, float64(spaceSplitWords(text)))
		t.types, t.start, t.end = append(t.types, node.Type), append(t.start, timeOrZero(nil)), append(t.end, timeOrZero(nil))
		for _, term := range memoryTerms(node) {
			t.terms[term] = append(t.terms[term], int32(i))
		}
		for run, count := range runCounts(text) {
			r := t.runIndex(run, runAt)
			t.runHits[r] = append(t.runHits[r], runHit{int32(i), count})
		}
	}
	nodes := map[string]realm.Node{speaker.ID: speaker}
	b.ResetTimer()
	for i := range b.N {
		added := realm.Node{ID: fmt.Sprint("new", i), Type: realm.Fact, Name: "Caroline", Content: word() + " " + word() + " " + word()}
		ins := []ObservationIntegration{{ObservationID: "o", Integration: Integration{
			Adds: []realm.Node{added}, Merges: []Merge{{ID: speaker.ID, Keywords: speaker.Keywords}},
		}}}
		u, ok := t.with(ins, nodes)
		if !ok {
			b.Fatal("not followed")
		}
		t = u
	}
}
