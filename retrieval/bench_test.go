package retrieval_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// wordEmbedder sums a pseudo-random unit vector per word: texts sharing words are close.
// Deterministic, no files; for benchmarks only.
type wordEmbedder struct{}

func (wordEmbedder) ID() string { return "test:words" }
func (wordEmbedder) Dim() int   { return cyphertest.Dims }
func (wordEmbedder) Embed(ctx context.Context, in []string) ([][]float32, error) {
	out := make([][]float32, len(in))
	for i, t := range in {
		v := make([]float64, cyphertest.Dims)
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New64a()
			h.Write([]byte(strings.Trim(w, "?.,")))
			rng := rand.New(rand.NewPCG(h.Sum64(), 1))
			for j := range v {
				v[j] += rng.NormFloat64()
			}
		}
		var norm float64
		for _, x := range v {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		out[i] = make([]float32, len(v))
		for j, x := range v {
			if norm > 0 {
				out[i][j] = float32(x / norm)
			}
		}
	}
	return out, nil
}

var benchWords = strings.Fields(`alice bob carol dave erin frank grace heidi ivan judy berlin paris munich london
	rome madrid job offer move house garden painting concert trip school exam dog cat wedding birthday
	hiking running book movie dinner friend sister brother mother father doctor project meeting car bike`)

// benchContents returns n random sentences of six benchWords and their embeddings.
func benchContents(ctx context.Context, rng *rand.Rand, n int) ([]string, [][]float32) {
	contents := make([]string, n)
	for i := range contents {
		var w []string
		for range 6 {
			w = append(w, benchWords[rng.IntN(len(benchWords))])
		}
		contents[i] = strings.Join(w, " ")
	}
	vecs, _ := wordEmbedder{}.Embed(ctx, contents)
	return contents, vecs
}

// mustBenchSpace writes n memories (random sentences of benchWords, a date for most) and
// 3 edges per memory to random others into a new space.
func mustBenchSpace(b *testing.B, s *cypher.Store, n int) string {
	b.Helper()
	ctx := context.Background()
	space := cyphertest.NewSpace(b)
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	contents, vecs := benchContents(ctx, rng, n)
	nodes := make([]realm.Node, n)
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range nodes {
		nodes[i] = realm.Node{ID: fmt.Sprintf("%s:%d", space, i), Type: realm.NodeTypes[rng.IntN(4)], Name: contents[i][:10], Content: contents[i], Embedding: vecs[i]}
		if rng.IntN(4) > 0 {
			at := start.Add(time.Duration(rng.IntN(365*24)) * time.Hour)
			nodes[i].TStart = &at
		}
	}
	var edges []realm.Edge
	for i := range nodes {
		for k := range 3 {
			j := rng.IntN(n)
			if j == i {
				continue
			}
			edges = append(edges, realm.Edge{
				ID: fmt.Sprintf("%s:e%d-%d", space, i, k), From: nodes[i].ID, To: nodes[j].ID,
				Predicate: realm.Predicates[rng.IntN(len(realm.Predicates))], Weight: 0.05 + 0.95*rng.Float64(),
			})
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.RemoveFixture(context.Background(), space) })
	return space
}

// reportQuantiles reports the median and p95 of each stage, in milliseconds.
func reportQuantiles(b *testing.B, samples map[string][]float64) {
	for stage, v := range samples {
		slices.Sort(v)
		b.ReportMetric(v[len(v)/2], stage+"-p50-ms")
		b.ReportMetric(v[min(len(v)-1, len(v)*95/100)], stage+"-p95-ms")
	}
}

// BenchmarkRecall10k: one recall with the offline decider on a 10k-memory space;
// median and p95 per stage.
func BenchmarkRecall10k(b *testing.B) {
	s := cyphertest.MustOpen(b)
	space := mustBenchSpace(b, s, 10000)
	ctx := context.Background()
	queries := []string{
		"What did Alice do in Berlin in May 2023?",
		"Why did Carol move to Paris?",
		"Which book did Bob read with his sister?",
		"How did Erin get the job offer?",
		"Where was the wedding concert?",
	}
	samples := map[string][]float64{}
	for _, strategy := range []realm.Strategy{realm.Adaptive} {
		r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			res, err := r.Recall(ctx, space, realm.RecallRequest{Query: queries[i%len(queries)], Strategy: strategy})
			if err != nil {
				b.Fatal(err)
			}
			for stage, ms := range res.Timings {
				samples[stage] = append(samples[stage], ms)
			}
		}
	}
	reportQuantiles(b, samples)
}

// BenchmarkSeedMethods times the two query_match seed searches on spaces of several
// sizes, to place Options.ExactScanMax.
func BenchmarkSeedMethods(b *testing.B) {
	s := cyphertest.MustOpen(b)
	ctx := context.Background()
	for _, n := range []int{250, 1000, 10000} {
		space := mustBenchSpace(b, s, n)
		inSpace, total, err := s.SpaceSize(ctx, space)
		if err != nil {
			b.Fatal(err)
		}
		vecs, _ := wordEmbedder{}.Embed(ctx, []string{"alice moved to berlin for a job offer"})
		q := cypher.SeedQuery{Embedding: vecs[0], Limit: 50}
		fetch := 50 * int((total+inSpace-1)/inSpace) * 2
		b.Run(fmt.Sprintf("exact/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.SeedByExactScan(ctx, space, q); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("index/%d/fetch%d", n, fetch), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.SeedByVectorIndex(ctx, space, q, fetch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// mustSaidSpace writes n memories as mustBenchSpace's, each an event said by a message of
// its own, perSession messages a session, one session a day from 2023-01-01 (session
// "s0" is the first day's), with the messages and their provenance, so that a recall's
// session and time filters have something to match.
func mustSaidSpace(b testing.TB, s *cypher.Store, n, perSession int) string {
	b.Helper()
	ctx := context.Background()
	space := cyphertest.NewSpace(b)
	contents, vecs := benchContents(ctx, rand.New(rand.NewPCG(uint64(n), 11)), n)
	start := time.Date(2023, 1, 1, 9, 0, 0, 0, time.UTC)
	obs := make([]realm.Observation, n)
	nodes := make([]realm.Node, n)
	for i := range n {
		at := start.AddDate(0, 0, i/perSession).Add(time.Duration(i%perSession) * time.Minute)
		obs[i] = realm.Observation{ID: fmt.Sprintf("m%d", i), SessionID: fmt.Sprintf("s%d", i/perSession), Speaker: "user", Content: contents[i], ObservedAt: at, Seq: int64(i + 1)}
		nodes[i] = realm.Node{ID: fmt.Sprintf("%s:%d", space, i), Type: realm.Event, Name: contents[i][:10], Content: contents[i], Embedding: vecs[i], TStart: &at, Sources: []string{obs[i].ID}}
	}
	if err := s.PutScaleSpace(ctx, space, wordEmbedder{}.ID(), cyphertest.Dims, int64(n), ""); err != nil {
		b.Fatal(err)
	}
	if err := s.PutScaleObservations(ctx, space, obs); err != nil {
		b.Fatal(err)
	}
	if _, err := s.PutScaleMemories(ctx, space, nodes); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.RemoveFixture(context.Background(), space) })
	return space
}

// BenchmarkRecallFiltered10k: one recall with the offline decider on a 10k-memory space
// of 500 sessions, filtered on one session and on one day; median and p95 per stage, and
// how many nodes it returned (at most K = 10, the session's 20 memories).
func BenchmarkRecallFiltered10k(b *testing.B) {
	s := cyphertest.MustOpen(b)
	space := mustSaidSpace(b, s, 10000, 20)
	ctx := context.Background()
	day := time.Date(2023, 3, 1, 0, 0, 0, 0, time.UTC)
	until := day.Add(24*time.Hour - time.Second)
	for name, f := range map[string]*realm.RecallFilters{
		"session": {SessionIDs: []string{"s250"}},
		"day":     {SaidSince: &day, SaidUntil: &until},
	} {
		b.Run(name, func(b *testing.B) {
			r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
			samples := map[string][]float64{}
			var nodes []float64
			for b.Loop() {
				res, err := r.Recall(ctx, space, realm.RecallRequest{Query: "What did Alice do in Berlin?", Filters: f})
				if err != nil {
					b.Fatal(err)
				}
				for stage, ms := range res.Timings {
					samples[stage] = append(samples[stage], ms)
				}
				nodes = append(nodes, float64(len(res.Nodes)))
			}
			reportQuantiles(b, samples)
			b.ReportMetric(slices.Min(nodes), "min-nodes")
		})
	}
}
