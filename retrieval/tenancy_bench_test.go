package retrieval_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// BenchmarkTenancySeeds measures the seed searches of a space alone and beside 20 other
// spaces of 1,000 memories of the same words (20,000 memories): per space size, the
// median milliseconds of the exact scan, of the vector index as the retriever asks it
// (5.26: over-fetch 50·⌈total/space⌉·2 nearest of every space, then this space's;
// 2026.x: filtered inside the index), of the full-text seed and of the full-text query
// it replaced (Lucene's global scores, best 2,500 hits of every space); the index's recall@50
// against the exact scan; and the share of queries whose index and full-text seeds
// (ids and scores) are the same beside the other spaces as alone. Run it on a database
// of its own (NEO4J_URI), once per Neo4j version.
func BenchmarkTenancySeeds(b *testing.B) {
	s := cyphertest.MustOpen(b)
	ctx := context.Background()
	metrics := map[string]float64{}
	report := func(v float64, name string) {
		metrics[name] = v
		b.Logf("%s %.3f", name, v)
	}
	rng := rand.New(rand.NewPCG(26, 2026))
	word := func() string { return benchWords[rng.IntN(len(benchWords))] }
	sizes := []int{600, 2000}
	spaces := map[int]string{}
	for _, n := range sizes {
		spaces[n] = cyphertest.NewSpace(b)
		putSentences(b, s, spaces[n], n, rng, word)
	}
	texts := []string{
		"alice moved to berlin for a job offer", "bob painting in the garden in paris",
		"wedding of carol's sister in rome", "dave read a book before the exam at school",
		"erin went hiking with her dog", "frank bought a car and a bike",
		"concert in london with a friend", "birthday dinner with mother and father",
		"grace met the doctor about the project", "heidi watched a movie with her brother",
	}
	vecs, _ := wordEmbedder{}.Embed(ctx, texts)
	cfg := cyphertest.Config()
	driver, err := neo4j.NewDriverWithContext(cfg.URI, neo4j.BasicAuth(cfg.User, cfg.Password, ""))
	if err != nil {
		b.Fatal(err)
	}
	defer driver.Close(ctx)
	// The full-text seed before per-space scoring, for comparison: the index's best hits
	// of every space, this space's kept, Lucene's scores.
	global := func(space, text string) error {
		_, err := neo4j.ExecuteQuery(ctx, driver, `CALL db.index.fulltext.queryNodes('memory_text_space_key', $lucene, {limit: 2500}) YIELD node, score
			WHERE node.space = $space RETURN node {.*} AS node, score ORDER BY score DESC LIMIT 50`,
			map[string]any{"lucene": cypher.LuceneText(text), "space": space}, neo4j.EagerResultTransformer)
		return err
	}

	type seeds struct{ index, text [][]string }
	measure := func(phase string, n int) seeds {
		space := spaces[n]
		inSpace, total, err := s.SpaceSize(ctx, space)
		if err != nil {
			b.Fatal(err)
		}
		fetch := 50 * int((total+inSpace-1)/inSpace) * 2
		var out seeds
		var exactMS, indexMS, textMS, globalMS []float64
		var recall float64
		for i, text := range texts {
			q := cypher.SeedQuery{Embedding: vecs[i], Keywords: []string{text}, Limit: 50}
			var exact, index, found []cypher.ScoredMemory
			for range 3 {
				start := time.Now()
				exact, err = s.SeedByExactScan(ctx, space, q)
				exactMS = append(exactMS, ms(start))
				start = time.Now()
				index, err = s.SeedByVectorIndex(ctx, space, q, fetch)
				indexMS = append(indexMS, ms(start))
				start = time.Now()
				found, err = s.SeedByFullText(ctx, space, q)
				textMS = append(textMS, ms(start))
				if err != nil {
					b.Fatal(err)
				}
				start = time.Now()
				if err := global(space, text); err != nil {
					b.Fatal(err)
				}
				globalMS = append(globalMS, ms(start))
			}
			want := scoredKeys(exact, false)
			hit := 0
			for _, id := range scoredKeys(index, false) {
				if slices.Contains(want, id) {
					hit++
				}
			}
			recall += float64(hit) / float64(len(want)) / float64(len(texts))
			out.index = append(out.index, scoredKeys(index, true))
			out.text = append(out.text, scoredKeys(found, true))
		}
		name := fmt.Sprintf("%s/%d", phase, n)
		report(median(exactMS), name+"-exact-ms")
		report(median(indexMS), name+"-index-ms")
		report(median(textMS), name+"-fulltext-ms")
		report(median(globalMS), name+"-fulltext-global-ms")
		report(recall, name+"-index-recall@50")
		b.Logf("%s: %d of %d memories, 5.26 fetch %d", name, inSpace, total, fetch)
		return out
	}
	alone := map[int]seeds{}
	for _, n := range sizes {
		alone[n] = measure("alone", n)
	}
	for i := range 20 {
		other := cyphertest.NewSpace(b)
		b.Logf("other space %d", i)
		lean := []string{benchWords[i%len(benchWords)], "alice", "berlin", "garden", "wedding", "exam"}
		putSentences(b, s, other, 1000, rng, func() string {
			if rng.IntN(2) == 0 {
				return lean[rng.IntN(len(lean))]
			}
			return word()
		})
	}
	for _, n := range sizes {
		beside := measure("beside", n)
		same := func(a, b [][]string) (share float64) {
			for i := range a {
				if slices.Equal(a[i], b[i]) {
					share += 1 / float64(len(a))
				}
			}
			return share
		}
		report(same(alone[n].index, beside.index), fmt.Sprintf("%d-index-same", n))
		report(same(alone[n].text, beside.text), fmt.Sprintf("%d-fulltext-same", n))
	}
	for b.Loop() {
	}
	for name, v := range metrics { // after b.Loop, which clears the metrics reported before it
		b.ReportMetric(v, name)
	}
}

// scoredKeys are the ids of ms, with their scores when withScores.
func scoredKeys(ms []cypher.ScoredMemory, withScores bool) []string {
	var out []string
	for _, m := range ms {
		if withScores {
			out = append(out, fmt.Sprintf("%s %.9f", m.Node.ID, m.Score))
		} else {
			out = append(out, m.Node.ID)
		}
	}
	return out
}

func ms(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}
