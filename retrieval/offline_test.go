package retrieval_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

func TestParseTimeWindow(t *testing.T) {
	now := time.Date(2023, 5, 24, 15, 0, 0, 0, time.UTC) // a Wednesday
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		q        string
		from, to time.Time // to exclusive
		rest     string
	}{
		{"What did Caroline do in May 2023?", day(2023, 5, 1), day(2023, 6, 1), "What did Caroline do ?"},
		{"What happened on 8 May 2023?", day(2023, 5, 8), day(2023, 5, 9), "What happened ?"},
		{"Where was Mel on May 8, 2023?", day(2023, 5, 8), day(2023, 5, 9), "Where was Mel ?"},
		{"What did Mel paint last week?", day(2023, 5, 15), day(2023, 5, 22), "What did Mel paint ?"},
		{"Who called yesterday?", day(2023, 5, 23), day(2023, 5, 24), "Who called ?"},
		{"What did she buy last month", day(2023, 4, 1), day(2023, 5, 1), "What did she buy"},
		{"Plans for next year", day(2024, 1, 1), day(2025, 1, 1), "Plans for"},
		{"What happened two weeks ago?", day(2023, 5, 8), day(2023, 5, 15), "What happened ?"},
		{"Where did they go in August?", day(2022, 8, 1), day(2022, 9, 1), "Where did they go ?"},
		{"What changed in 2022?", day(2022, 1, 1), day(2023, 1, 1), "What changed ?"},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			w, rest := retrieval.ParseTimeWindow(tt.q, now)
			if w == nil {
				t.Fatal("no window")
			}
			if !w.From.Equal(tt.from) || !w.To.Equal(tt.to.Add(-time.Nanosecond)) {
				t.Errorf("window %v – %v, want %v – %v", w.From, w.To, tt.from, tt.to)
			}
			if rest != tt.rest {
				t.Errorf("rest %q, want %q", rest, tt.rest)
			}
		})
	}
	t.Run("None", func(t *testing.T) {
		if w, _ := retrieval.ParseTimeWindow("What may Caroline like?", now); w != nil {
			t.Errorf("got %v, want no window", w)
		}
	})
}

func TestOfflinePlanSeeds(t *testing.T) {
	d := retrieval.NewOfflineDecider()
	now := time.Date(2023, 5, 24, 0, 0, 0, 0, time.UTC)
	plans, _, err := d.PlanSeeds(context.Background(), retrieval.PlanInput{Query: "What did Caroline's sister paint in May 2023?", Time: now})
	if err != nil || len(plans) != 1 {
		t.Fatalf("plans %v, err %v", plans, err)
	}
	p := plans[0]
	if p.Mode != realm.HybridMatch || !slices.Equal(p.Keywords, []string{"caroline", "sister", "paint"}) {
		t.Errorf("plan %+v", p)
	}
	if p.TimeRange == nil || p.TimeRange.From.Month() != time.May {
		t.Errorf("time range %v", p.TimeRange)
	}
	plans, _, _ = d.PlanSeeds(context.Background(), retrieval.PlanInput{Query: "What is it?", Time: now})
	if plans[0].Mode != realm.QueryMatch {
		t.Errorf("a query without keywords: %+v", plans[0])
	}
}

func TestOfflineExpansionPolicy(t *testing.T) {
	d := retrieval.NewOfflineDecider()
	tests := []struct {
		q       string
		mode    realm.ExpansionMode
		inhibit bool
	}{
		{"Why did Alice move to Berlin?", realm.PathSearch, true},
		{"How did Alice get the job?", realm.PathSearch, true},
		{"What led to the breakup?", realm.PathSearch, true},
		{"How many children does Mel have?", realm.SubgraphBeam, true},
		{"Where does Alice live?", realm.SubgraphBeam, true},
		{"Does Alice still live in Munich?", realm.SubgraphBeam, false},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			pol, _, err := d.ExpansionPolicy(context.Background(), retrieval.PolicyInput{Query: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			if pol.Atom.Mode != tt.mode || pol.Atom.ConflictInhibit != tt.inhibit || pol.Reasoning == "" {
				t.Errorf("policy %+v", pol)
			}
		})
	}
	t.Run("QuestionLeadsToItsAnswer", func(t *testing.T) {
		node := retrieval.Candidate{Node: realm.Node{Content: "Bob: where did Alice move?"}}
		pol, _, _ := d.ExpansionPolicy(context.Background(), retrieval.PolicyInput{Query: "Where does Alice live?", Node: node})
		if !slices.Equal(pol.Atom.Predicates, []realm.Predicate{realm.Triggers}) || pol.Atom.Mode != realm.SubgraphBeam {
			t.Errorf("policy %+v, want subgraph_beam over triggers only", pol)
		}
	})
	t.Run("DecayFromPlanWindow", func(t *testing.T) {
		may := &realm.TimeRange{From: time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2023, 5, 31, 0, 0, 0, 0, time.UTC)}
		pol, _, _ := d.ExpansionPolicy(context.Background(), retrieval.PolicyInput{Query: "q", Plans: []realm.Plan{{TimeRange: may}}})
		if pol.Atom.Decay == nil || pol.Atom.Decay.Mode != realm.DecaySoft || pol.Atom.Decay.Time.Day() != 16 {
			t.Errorf("decay %+v", pol.Atom.Decay)
		}
	})
}

func TestOfflineSufficiency(t *testing.T) {
	d := retrieval.NewOfflineDecider()
	node := func(id, content string, score float64) retrieval.Candidate {
		return retrieval.Candidate{Node: realm.Node{ID: id, Content: content}, Score: score}
	}
	plans := []realm.Plan{{Keywords: []string{"alice", "berlin", "moved"}}}
	tests := []struct {
		name   string
		query  string
		depth  int
		k      int
		nodes  []retrieval.Candidate
		enough bool
		first  string
	}{
		{"CoveredWithGap", "Where did Alice move?", 1, 10, []retrieval.Candidate{node("a", "Alice moves to Berlin", 0.9), node("b", "Bob", 0.5)}, true, ""},
		{"CoveredNoGap", "Where did Alice move?", 1, 10, []retrieval.Candidate{node("a", "Alice moves to Berlin", 0.6), node("b", "Bob", 0.55)}, false, "a"},
		{"UncoveredTermFirst", "Where did Alice move?", 1, 1, []retrieval.Candidate{node("a", "Bob likes chess", 0.9), node("b", "Alice lives in Munich", 0.3)}, false, "b"},
		{"CausalNeedsOneExpansion", "Why did Alice move?", 1, 10, []retrieval.Candidate{node("a", "Alice moved to Berlin", 0.9), node("b", "Bob", 0.5)}, false, "a"},
		{"CausalAfterExpansion", "Why did Alice move?", 2, 10, []retrieval.Candidate{node("a", "Alice moved to Berlin", 0.9), node("b", "Bob", 0.5)}, true, ""},
		{"QuestionInTopK", "Where did Alice move?", 1, 10, []retrieval.Candidate{node("a", "Alice moves to Berlin", 0.9), node("b", "Bob: where did Alice move?", 0.5)}, false, "b"},
		// A question reached by expansion (an answer asking back) is not followed, first or at all.
		{"ReachedQuestionNotFollowed", "Where did Alice move?", 2, 10, []retrieval.Candidate{node("a", "Alice moves to Berlin", 0.9), {Node: realm.Node{ID: "b", Content: "Bob: where?"}, Score: 0.5, Depth: 1}}, true, ""},
		{"ReachedQuestionNotExpanded", "Where did Alice move?", 2, 10, []retrieval.Candidate{node("a", "Alice likes tea", 0.6), {Node: realm.Node{ID: "b", Content: "Bob: where?"}, Score: 0.55, Depth: 1}}, false, "a"},
		{"QuestionExpanded", "Where did Alice move?", 2, 10, []retrieval.Candidate{node("a", "Alice moves to Berlin", 0.9), {Node: realm.Node{ID: "b", Content: "Bob: where?"}, Score: 0.5, Expanded: true}}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := d.Sufficiency(context.Background(), retrieval.SufficiencyInput{Query: tt.query, Plans: plans, Depth: tt.depth, MaxDepth: 3, K: tt.k, Nodes: tt.nodes})
			if err != nil {
				t.Fatal(err)
			}
			if s.IsEnough != tt.enough {
				t.Fatalf("is_enough %v (%s), want %v", s.IsEnough, s.Reason, tt.enough)
			}
			if !tt.enough && (len(s.NodesToExpand) == 0 || s.NodesToExpand[0] != tt.first) {
				t.Errorf("nodes to expand %v, want %s first", s.NodesToExpand, tt.first)
			}
		})
	}
}

// The offline decider end to end on the hand-built graph: a why-question walks paths and
// finds carol, two hops from the best seed.
func TestOfflineRecall(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	r := newRetriever(s, retrieval.NewOfflineDecider(), retrieval.DefaultOptions())
	res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: question})
	if err != nil {
		t.Fatal(err)
	}
	got := scores(space, res)
	_, carol := got["carol"]
	_, offer := got["offer"]
	if res.Nodes[0].Node.ID != id(space, "move") || !carol || !offer {
		t.Errorf("got %v", got)
	}
	tr, err := s.Trace(context.Background(), space, res.TraceID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) == 0 || tr.Steps[0].Atom.Mode != realm.PathSearch {
		t.Errorf("steps %+v", tr.Steps)
	}
}
