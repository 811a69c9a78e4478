package retrieval_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// putSentences writes n memories of six words each into space, the words drawn by pick,
// and 3 edges per memory to random others; the embeddings are wordEmbedder's.
func putSentences(t testing.TB, s *cypher.Store, space string, n int, rng *rand.Rand, pick func() string) {
	t.Helper()
	ctx := context.Background()
	contents := make([]string, n)
	for i := range contents {
		var w []string
		for range 6 {
			w = append(w, pick())
		}
		contents[i] = strings.Join(w, " ")
	}
	vecs, _ := wordEmbedder{}.Embed(ctx, contents)
	nodes := make([]realm.Node, n)
	for i := range nodes {
		name := strings.Join(strings.Fields(contents[i])[:2], " ")
		nodes[i] = realm.Node{ID: fmt.Sprintf("%s:%d", space, i), Type: realm.NodeTypes[rng.IntN(4)], Name: name, Content: contents[i], Embedding: vecs[i]}
	}
	var edges []realm.Edge
	for i := range nodes {
		for k := range 3 {
			if j := rng.IntN(n); j != i {
				edges = append(edges, realm.Edge{
					ID: fmt.Sprintf("%s:e%d-%d", space, i, k), From: nodes[i].ID, To: nodes[j].ID,
					Predicate: realm.Predicates[rng.IntN(len(realm.Predicates))], Weight: 0.05 + 0.95*rng.Float64(),
				})
			}
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
}

// recalled is what a recall shows of a space: its nodes in order with their scores and
// depths, and its edges.
func recalled(res realm.RecallResult) []string {
	var out []string
	for _, n := range res.Nodes {
		out = append(out, fmt.Sprintf("%s %.9f %d", n.Node.ID, n.Score, n.Depth))
	}
	for _, e := range res.Edges {
		out = append(out, e.ID)
	}
	return out
}

// TestIsolation: a space's recall results (nodes, order, scores, depths, edges) are the
// same whether the database holds it alone or beside 50 other spaces full of similar
// text that skews every word's frequency: keyword seeds are scored from the space's own
// statistics (seed_fulltext.cypher). The full-text index's own scores of the space's
// memories do change with the other spaces (checked too, so the other spaces do disturb
// what a global score would rank).
func TestIsolation(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	mine := cyphertest.NewSpace(t)
	rng := rand.New(rand.NewPCG(18, 1))
	putSentences(t, s, mine, 300, rng, func() string { return benchWords[rng.IntN(len(benchWords))] })

	questions := []string{
		"Where did Alice move for her job offer?",
		"What did Bob paint in the garden in Paris?",
		"When was the wedding of Carol's sister in Rome?",
		"Which book did Dave read before the exam at school?",
	}
	keywords := [][]string{{"alice", "berlin", "offer"}, {"painting", "garden", "paris"}, {"wedding", "sister", "rome"}, {"book", "exam", "school"}}
	recallAll := func() map[string][]string {
		out := map[string][]string{}
		offlineR := newRetriever(s, offline.New(offline.Options{}), retrieval.DefaultOptions())
		for i, q := range questions {
			for _, strategy := range []realm.Strategy{realm.StrategyBeam, realm.StrategyPath} {
				res, err := offlineR.Recall(ctx, mine, realm.RecallRequest{Query: q, Strategy: strategy})
				if err != nil {
					t.Fatal(err)
				}
				out[fmt.Sprintf("offline %s %q", strategy, q)] = recalled(res)
			}
			for _, mode := range []realm.MatchMode{realm.KeywordsMatch, realm.HybridMatch} {
				plan := realm.Plan{Query: q, Keywords: keywords[i], Mode: mode}
				r := newRetriever(s, scripted{plans: []realm.Plan{plan}, reasoning: q}, retrieval.DefaultOptions())
				res, err := r.Recall(ctx, mine, realm.RecallRequest{Query: q, K: 20})
				if err != nil {
					t.Fatal(err)
				}
				out[fmt.Sprintf("%s %q", mode, q)] = recalled(res)
			}
		}
		return out
	}
	cfg := cyphertest.Config()
	driver, err := neo4j.NewDriverWithContext(cfg.URI, neo4j.BasicAuth(cfg.User, cfg.Password, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer driver.Close(ctx)
	// The full-text index's own scores of this space's matches, for the check below.
	globalScores := func() []float64 {
		res, err := neo4j.ExecuteQuery(ctx, driver, `CALL db.index.fulltext.queryNodes('memory_text_space_key', 'alice berlin offer') YIELD node, score
			WHERE node.space = $space RETURN score ORDER BY score DESC, node.id`, map[string]any{"space": mine}, neo4j.EagerResultTransformer)
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for _, r := range res.Records {
			v, _ := r.Get("score")
			out = append(out, v.(float64))
		}
		return out
	}

	alone, globalAlone := recallAll(), globalScores()
	for key, got := range alone {
		if len(got) == 0 {
			t.Fatalf("%s: nothing recalled", key)
		}
	}

	// 50 spaces of the same vocabulary, each leaning on a few words (so that every
	// word's frequency in the database moves), at least as large as this one together.
	for i := range 50 {
		other := cyphertest.NewSpace(t)
		lean := benchWords[i%len(benchWords) : i%len(benchWords)+1]
		lean = append(lean, "alice", "berlin", "garden", "wedding", "exam")
		putSentences(t, s, other, 100, rng, func() string {
			if rng.IntN(2) == 0 {
				return lean[rng.IntN(len(lean))]
			}
			return benchWords[rng.IntN(len(benchWords))]
		})
	}

	beside := recallAll()
	for key, want := range alone {
		if got := beside[key]; !slices.Equal(got, want) {
			t.Errorf("%s beside 50 spaces:\n got %v\nwant %v", key, got, want)
		}
	}
	if g := globalScores(); len(g) == 0 || slices.Equal(g, globalAlone) {
		t.Errorf("the full-text index's global scores did not move (%v, then %v): the other spaces do not test anything", globalAlone, g)
	}
}
