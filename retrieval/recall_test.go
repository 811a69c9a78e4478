package retrieval_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// Seed scores by hand (REALM.md §3.1, §3.3). A seed's access score is its seed score s;
// its final score is 0.8·s + 0.2·sim(v, q).
func TestSeeds(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	ctx := context.Background()
	june := time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)
	recall := func(t *testing.T, plan realm.Plan) (realm.RecallResult, realm.Trace) {
		t.Helper()
		r := newRetriever(s, scripted{plans: []realm.Plan{plan}}, paperOptions())
		return recallTraced(ctx, t, s, r, space, realm.RecallRequest{Query: question, MaxDepth: depth(0)})
	}

	t.Run("QueryMatch", func(t *testing.T) {
		// s = sim(Q, v); threshold 0.3 keeps move 0.8, hq 0.6, trip 0.6.
		res, tr := recall(t, realm.Plan{Query: question, Mode: realm.QueryMatch})
		wantScores(t, space, res, map[string]float64{"move": 0.8, "hq": 0.6, "trip": 0.6})
		if tr.SeedMethod != realm.SeedExactScan || tr.PlanRelaxation[0] != retrieval.RelaxNone {
			t.Errorf("seed method %q, relaxation %v", tr.SeedMethod, tr.PlanRelaxation)
		}
	})
	t.Run("KeywordsMatch", func(t *testing.T) {
		// Only the full-text index: the three memories naming Zalando, the best at 1.
		res, tr := recall(t, realm.Plan{Query: question, Keywords: []string{"Zalando"}, Mode: realm.KeywordsMatch})
		got := scores(space, res)
		if len(got) != 3 || got["offer"] == 0 || got["hq"] == 0 || got["carol"] == 0 {
			t.Fatalf("got %v, want offer, hq, carol", got)
		}
		if tr.Seeds[0].Score != 1 {
			t.Errorf("best keyword seed %v, want normalised to 1", tr.Seeds[0])
		}
	})
	t.Run("HybridMatch", func(t *testing.T) {
		// s = 0.6·sim + 0.4·keyword: move 0.48, munich 0.4 (keyword only), hq = trip 0.36.
		res, _ := recall(t, realm.Plan{Query: question, Keywords: []string{"Munich"}, Mode: realm.HybridMatch})
		wantScores(t, space, res, map[string]float64{
			"move":   0.8*0.48 + 0.2*0.8,
			"munich": 0.8 * 0.4,
			"hq":     0.8*0.36 + 0.2*0.6,
			"trip":   0.8*0.36 + 0.2*0.6,
		})
	})
	t.Run("TimeRange", func(t *testing.T) {
		// From June 2023: move (May) goes, trip (June) stays, timeless hq stays.
		plan := realm.Plan{Query: question, Keywords: []string{"alice"}, TimeRange: &realm.TimeRange{From: june}, Mode: realm.HybridMatch}
		got := scores(space, must(recall(t, plan)))
		if _, ok := got["move"]; ok {
			t.Errorf("move is outside the time range: %v", got)
		}
		if got["trip"] == 0 || got["hq"] == 0 {
			t.Errorf("trip (in range) and hq (timeless) must stay: %v", got)
		}
		// τ is enforced in hybrid_match only.
		plan.Mode = realm.QueryMatch
		if got := scores(space, must(recall(t, plan))); got["move"] == 0 {
			t.Errorf("query_match must ignore τ: %v", got)
		}
	})
	t.Run("RelaxNone", func(t *testing.T) {
		res, tr := recall(t, realm.Plan{Query: question, Types: []realm.NodeType{realm.Event}, Mode: realm.QueryMatch})
		wantScores(t, space, res, map[string]float64{"move": 0.8, "trip": 0.6})
		if tr.PlanRelaxation[0] != retrieval.RelaxNone {
			t.Errorf("relaxation %v", tr.PlanRelaxation)
		}
	})
	t.Run("RelaxThreshold", func(t *testing.T) {
		// No fact is similar to this query: the threshold goes, the type stays.
		res, tr := recall(t, realm.Plan{Query: "nothing we know about", Types: []realm.NodeType{realm.Fact}, Mode: realm.QueryMatch})
		if len(res.Nodes) != 3 {
			t.Errorf("got %v, want the three facts", scores(space, res))
		}
		for _, n := range res.Nodes {
			if n.Node.Type != realm.Fact {
				t.Errorf("%s is %s, want fact", n.Node.ID, n.Node.Type)
			}
		}
		if tr.PlanRelaxation[0] != retrieval.RelaxThreshold {
			t.Errorf("relaxation %v", tr.PlanRelaxation)
		}
	})
	t.Run("RelaxTypes", func(t *testing.T) {
		// There is no entity: the types go too; the best of any type is move.
		res, tr := recall(t, realm.Plan{Query: question, Types: []realm.NodeType{realm.Entity}, Mode: realm.QueryMatch})
		if len(res.Nodes) == 0 || res.Nodes[0].Node.ID != id(space, "move") {
			t.Errorf("got %v, want move first", scores(space, res))
		}
		if tr.PlanRelaxation[0] != retrieval.RelaxTypes {
			t.Errorf("relaxation %v", tr.PlanRelaxation)
		}
	})
	t.Run("Fallback", func(t *testing.T) {
		// Keywords nothing matches: seeds are never empty on a non-empty space.
		res, tr := recall(t, realm.Plan{Query: question, Keywords: []string{"xylophone"}, Mode: realm.KeywordsMatch})
		if len(res.Nodes) == 0 || res.Nodes[0].Node.ID != id(space, "move") {
			t.Errorf("got %v, want move first", scores(space, res))
		}
		if tr.PlanRelaxation[len(tr.PlanRelaxation)-1] != retrieval.RelaxFallback {
			t.Errorf("relaxation %v", tr.PlanRelaxation)
		}
	})
	t.Run("LuceneSyntax", func(t *testing.T) {
		// Special characters and operator words are searched as text, not parsed.
		plan := realm.Plan{Query: question, Keywords: []string{`Zalando") OR (x`, "AND", "c++", "a:b", `\`, "*"}, Mode: realm.KeywordsMatch}
		if got := scores(space, must(recall(t, plan))); got["offer"] == 0 {
			t.Errorf("got %v, want the Zalando memories", got)
		}
	})
	t.Run("EmptySpace", func(t *testing.T) {
		r := newRetriever(s, scripted{}, retrieval.DefaultOptions())
		res, err := r.Recall(ctx, cyphertest.NewSpace(t), realm.RecallRequest{Query: question})
		if err != nil || len(res.Nodes) != 0 {
			t.Fatalf("got %v, %v; want no nodes", res.Nodes, err)
		}
	})
}

func must(res realm.RecallResult, _ realm.Trace) realm.RecallResult { return res }

// Expansion scores by hand (REALM.md §3.2, §3.3), reasoning r = the query (axis 0).
//
// From move, hop 1: offer over TRIGGERS 0.9: edge score 0.6·0 + 0.4·0.9 = 0.36;
// s_acc = 0.6·sim(q, description) + 0.4·0.9 = 0.36 + 0.36 = 0.72; Score = 0.8·0.72 = 0.576.
// Hop 2: carol over ENABLES 0.7, no description: s_acc = 0.6·sim(q, carol) + 0.4·0.7 = 0.28;
// Score = 0.224. hq and trip reached again score below their seed scores, which stay.
// munich only over CONTRADICTS: s_acc = 0.4·0.8 = 0.32, Score = 0.256. chess only over a
// 0.05 edge, below w_suppress: never.
func TestExpansion(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	ctx := context.Background()
	plans := []realm.Plan{{Query: question, Mode: realm.QueryMatch}}
	base := map[string]float64{"move": 0.8, "hq": 0.6, "trip": 0.6, "offer": 0.576, "carol": 0.224}
	with := func(extra map[string]float64) map[string]float64 {
		out := map[string]float64{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range extra {
			if v < 0 {
				delete(out, k)
			} else {
				out[k] = v
			}
		}
		return out
	}
	may10 := time.Date(2023, 5, 10, 0, 0, 0, 0, time.UTC)
	soft := &realm.TemporalDecay{Time: may10, DeltaT: 30 * 24 * time.Hour, Mode: realm.DecaySoft, MissingTime: realm.MissingTimeKeep}
	hard := &realm.TemporalDecay{Time: may10, DeltaT: 30 * 24 * time.Hour, Mode: realm.DecayHard, MissingTime: realm.MissingTimeKeep}
	for _, strategy := range []realm.Strategy{realm.StrategyBeam, realm.StrategyPath} {
		tests := []struct {
			name string
			atom realm.Atom
			want map[string]float64
		}{
			{"TwoHops", realm.Atom{ConflictInhibit: true}, base},
			{"NoInhibit", realm.Atom{}, with(map[string]float64{"munich": 0.256})},
			{"Predicates", realm.Atom{Predicates: []realm.Predicate{realm.Triggers, realm.Contextualizes}}, with(map[string]float64{"carol": -1})},
			// Window [Apr 10, Jun 9]: offer is 40 days before it, penalty 0.05·40/30;
			// carol 68 days, 0.05·68/30; trip 6 days, but its seed score stays.
			{"SoftDecay", realm.Atom{ConflictInhibit: true, Decay: soft}, with(map[string]float64{
				"offer": 0.8 * (0.72 - 0.05*40/30.0),
				"carol": 0.8 * (0.28 - 0.05*68/30.0),
			})},
			// Hard: offer is outside the window, and carol is reachable only through it.
			{"HardDecay", realm.Atom{ConflictInhibit: true, Decay: hard}, with(map[string]float64{"offer": -1, "carol": -1})},
		}
		for _, tt := range tests {
			t.Run(string(strategy)+"/"+tt.name, func(t *testing.T) {
				r := newRetriever(s, scripted{plans: plans, atom: tt.atom, reasoning: question}, paperOptions())
				res, err := r.Recall(ctx, space, realm.RecallRequest{Query: question, MaxDepth: depth(2), Strategy: strategy})
				if err != nil {
					t.Fatal(err)
				}
				wantScores(t, space, res, tt.want)
				for _, n := range res.Nodes {
					if strings.HasSuffix(n.Node.ID, ":carol") && n.Depth != 2 {
						t.Errorf("carol at depth %d, want 2", n.Depth)
					}
				}
			})
		}
	}
	t.Run("DepthOne", func(t *testing.T) {
		r := newRetriever(s, scripted{plans: plans, atom: realm.Atom{ConflictInhibit: true}, reasoning: question}, paperOptions())
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: question, MaxDepth: depth(1)})
		if err != nil {
			t.Fatal(err)
		}
		wantScores(t, space, res, with(map[string]float64{"carol": -1}))
	})
	// The Retriever keeps edge descriptions' vectors across recalls: a second recall
	// scores the same without embedding the description again.
	t.Run("DescriptionsCached", func(t *testing.T) {
		emb := &countingEmbedder{}
		r := retrieval.New(s, emb, scripted{plans: plans, atom: realm.Atom{ConflictInhibit: true}, reasoning: question}, paperOptions(), zerolog.Nop())
		for range 2 {
			res, err := r.Recall(ctx, space, realm.RecallRequest{Query: question, MaxDepth: depth(2)})
			if err != nil {
				t.Fatal(err)
			}
			wantScores(t, space, res, base)
		}
		if n := emb.count("the job offer triggered the move"); n != 1 {
			t.Errorf("the description was embedded %d times in two recalls, want once", n)
		}
	})
	t.Run("InducedEdges", func(t *testing.T) {
		r := newRetriever(s, scripted{plans: plans, atom: realm.Atom{ConflictInhibit: true}, reasoning: question}, paperOptions())
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: question, MaxDepth: depth(2)})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, e := range res.Edges {
			got[strings.TrimPrefix(e.ID, space+":")] = true
		}
		for _, want := range []string{"offer-move", "carol-offer", "hq-move", "move-trip"} {
			if !got[want] {
				t.Errorf("edge %s missing from %v", want, got)
			}
		}
		if len(got) != 4 {
			t.Errorf("got edges %v, want exactly the four among the returned nodes", got)
		}
	})
}

func TestTrace(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	other := mustGraph(t, s)
	ctx := context.Background()
	r := newRetriever(s, scripted{plans: []realm.Plan{{Query: question, Mode: realm.QueryMatch}}, atom: realm.Atom{ConflictInhibit: true}, reasoning: question}, retrieval.DefaultOptions())
	at := time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC)
	res, err := r.Recall(ctx, space, realm.RecallRequest{Query: question, Time: &at, MaxDepth: depth(2), Strategy: realm.StrategyBeam})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		tr, err := s.Trace(ctx, space, res.TraceID)
		if err != nil {
			t.Fatal(err)
		}
		if tr.ID != res.TraceID || tr.Space != space || tr.Query != question || !tr.Time.Equal(at) {
			t.Errorf("trace header %+v", tr)
		}
		if len(tr.Plans) != 1 || len(tr.Seeds) != 3 || tr.Seeds[0].ID != id(space, "move") {
			t.Errorf("plans %v, seeds %v", tr.Plans, tr.Seeds)
		}
		if len(tr.Steps) == 0 || tr.Steps[0].Atom.Mode != realm.SubgraphBeam || tr.Steps[0].Reasoning != question || len(tr.Steps[0].Frontier) != 1 {
			t.Fatalf("steps %+v", tr.Steps)
		}
		if tr.FirstDepth[id(space, "carol")] != 2 || tr.FirstDepth[id(space, "offer")] != 1 || tr.FirstDepth[id(space, "move")] != 0 {
			t.Errorf("first depths %v", tr.FirstDepth)
		}
		if len(tr.Decisions) == 0 || len(tr.Scores) != len(res.Nodes) {
			t.Errorf("decisions %v, scores %v", tr.Decisions, tr.Scores)
		}
		for _, stage := range []string{retrieval.StagePlan, retrieval.StageSeed, retrieval.StageExpand, retrieval.StageAggregate, retrieval.StageRecord, retrieval.StageTotal} {
			if _, ok := res.Timings[stage]; !ok {
				t.Errorf("no timing for %s", stage)
			}
		}
	})
	t.Run("ErrOtherSpace", func(t *testing.T) {
		if _, err := s.Trace(ctx, other, res.TraceID); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("got %v, want not found", err)
		}
	})
	t.Run("AccessStats", func(t *testing.T) {
		nodes, err := s.MemoriesByIDs(ctx, space, []string{id(space, "move"), id(space, "chess")})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			returned := strings.HasSuffix(n.ID, ":move")
			if returned != (n.AccessCount == 1 && n.LastAccessedAt != nil) {
				t.Errorf("%s: access count %d, last accessed %v", n.ID, n.AccessCount, n.LastAccessedAt)
			}
		}
	})
}

// Two spaces hold the same graph (same texts, same embeddings, other ids): no mode,
// strategy or seed method shows one space's nodes or edges to the other.
func TestTenancy(t *testing.T) {
	s := cyphertest.MustOpen(t)
	a, b := mustGraph(t, s), mustGraph(t, s)
	ctx := context.Background()
	index := retrieval.DefaultOptions()
	index.ExactScanMax, index.IndexFetchMax = 0, 1<<20
	methods := map[string]retrieval.Options{realm.SeedExactScan: retrieval.DefaultOptions(), realm.SeedVectorIndex: index}
	modes := map[realm.MatchMode]realm.Plan{
		realm.QueryMatch:    {Query: question, Mode: realm.QueryMatch},
		realm.KeywordsMatch: {Query: question, Keywords: []string{"alice", "zalando", "berlin"}, Mode: realm.KeywordsMatch},
		realm.HybridMatch:   {Query: question, Keywords: []string{"alice", "munich"}, Mode: realm.HybridMatch},
	}
	for method, opts := range methods {
		for mode, plan := range modes {
			for _, strategy := range []realm.Strategy{realm.StrategyBeam, realm.StrategyPath} {
				t.Run(method+"/"+string(mode)+"/"+string(strategy), func(t *testing.T) {
					r := newRetriever(s, scripted{plans: []realm.Plan{plan}, reasoning: question}, opts)
					for _, pair := range [][2]string{{a, b}, {b, a}} {
						space, other := pair[0], pair[1]
						res, err := r.Recall(ctx, space, realm.RecallRequest{Query: question, Strategy: strategy, K: 50})
						if err != nil {
							t.Fatal(err)
						}
						if len(res.Nodes) < 5 {
							t.Errorf("%s: only %d nodes", space, len(res.Nodes))
						}
						for _, n := range res.Nodes {
							if n.Node.Space != space || strings.HasPrefix(n.Node.ID, other) {
								t.Errorf("recall in %s returned %s of %s", space, n.Node.ID, n.Node.Space)
							}
						}
						for _, e := range res.Edges {
							if !strings.HasPrefix(e.From, space) || !strings.HasPrefix(e.To, space) {
								t.Errorf("recall in %s returned edge %s", space, e.ID)
							}
						}
						tr, err := s.Trace(ctx, space, res.TraceID)
						if err != nil {
							t.Fatal(err)
						}
						if tr.SeedMethod != method {
							t.Errorf("seed method %s, want %s", tr.SeedMethod, method)
						}
						for id := range tr.FirstDepth {
							if !strings.HasPrefix(id, space) {
								t.Errorf("trace of %s reached %s", space, id)
							}
						}
					}
				})
			}
		}
	}
}

func TestRecallValidation(t *testing.T) {
	s := cyphertest.MustOpen(t)
	r := newRetriever(s, scripted{}, retrieval.DefaultOptions())
	ctx := context.Background()
	tests := []struct {
		name  string
		space string
		req   realm.RecallRequest
		field string
	}{
		{"ErrQueryRequired", "ok", realm.RecallRequest{}, "query"},
		{"ErrK", "ok", realm.RecallRequest{Query: "q", K: realm.MaxRecallK + 1}, "k"},
		{"ErrMaxDepth", "ok", realm.RecallRequest{Query: "q", MaxDepth: depth(realm.MaxRecallDepth + 1)}, "max_depth"},
		{"ErrBeamWidth", "ok", realm.RecallRequest{Query: "q", BeamWidth: -1}, "beam_width"},
		{"ErrPathMaxDepth", "ok", realm.RecallRequest{Query: "q", PathMaxDepth: 4}, "path_max_depth"},
		{"ErrPathTopK", "ok", realm.RecallRequest{Query: "q", PathTopK: realm.MaxPathTopK + 1}, "path_top_k"},
		{"ErrSubgraphMaxNodes", "ok", realm.RecallRequest{Query: "q", SubgraphMaxNodes: realm.MaxSubgraphNodes + 1}, "subgraph_max_nodes"},
		{"ErrStrategy", "ok", realm.RecallRequest{Query: "q", Strategy: "random"}, "strategy"},
		{"ErrMinScoreAbove1", "ok", realm.RecallRequest{Query: "q", MinScore: 1.01}, "min_score"},
		{"ErrMinScoreNegative", "ok", realm.RecallRequest{Query: "q", MinScore: -0.5}, "min_score"},
		{"ErrMinScoreNaN", "ok", realm.RecallRequest{Query: "q", MinScore: math.NaN()}, "min_score"},
		{"ErrSpace", "no spaces allowed", realm.RecallRequest{Query: "q"}, "space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.Recall(ctx, tt.space, tt.req)
			var e *realm.Error
			if realm.ErrorCode(err) != realm.EInvalid || !asError(err, &e) || e.Fields[tt.field] == "" {
				t.Fatalf("got %v, want EInvalid naming %s", err, tt.field)
			}
		})
	}
}

func asError(err error, target **realm.Error) bool {
	e, ok := err.(*realm.Error)
	*target = e
	return ok
}

// countingEmbedder is tableEmbedder counting the texts it embeds.
type countingEmbedder struct {
	tableEmbedder
	mu   sync.Mutex
	seen map[string]int
}

func (e *countingEmbedder) Embed(ctx context.Context, in []string) ([][]float32, error) {
	e.mu.Lock()
	if e.seen == nil {
		e.seen = map[string]int{}
	}
	for _, t := range in {
		e.seen[t]++
	}
	e.mu.Unlock()
	return e.tableEmbedder.Embed(ctx, in)
}

func (e *countingEmbedder) count(text string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen[text]
}

// TestExplore: the exploration of REALM.md §4. From move, subgraph_beam of width 2 keeps
// hq (edge score 0.6) and trip (0.56) and leaves out offer (0.36, weight 0.9) and munich
// (0.32, weight 0.8); chess's 0.05 edge is suppressed. Exploring a share of 0.5 of the
// width also admits one left-out neighbour, the one over the lowest weight: munich, not
// offer. Without exploration neither comes.
func TestExplore(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	ctx := context.Background()
	plans := []realm.Plan{{Query: question, Mode: realm.QueryMatch}}
	recall := func(explore float64) map[string]float64 {
		t.Helper()
		o := paperOptions()
		o.Explore = explore
		r := newRetriever(s, scripted{plans: plans, atom: realm.Atom{}, reasoning: question}, o)
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: question, MaxDepth: depth(1), Strategy: realm.StrategyBeam, BeamWidth: 2})
		if err != nil {
			t.Fatal(err)
		}
		return scores(space, res)
	}
	off, on := recall(0), recall(0.5)
	for _, name := range []string{"munich", "offer", "chess"} {
		if _, ok := off[name]; ok {
			t.Errorf("without exploration %s was reached: %v", name, off)
		}
	}
	if _, ok := on["munich"]; !ok {
		t.Errorf("exploring, munich (the lowest-weight neighbour left out) was not reached: %v", on)
	}
	for _, name := range []string{"offer", "chess"} {
		if _, ok := on[name]; ok {
			t.Errorf("exploring one neighbour, %s was reached too: %v", name, on)
		}
	}
}
