package reconsolidation_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/reconsolidation"
)

// concurrentQuery is the query of every trace below; every memory shares "dance" with it,
// so the offline auditor finds nothing misleading by word overlap and the edits are the
// ones the test means (strengthens along paths, adds between key nodes).
const concurrentQuery = "What did Jon do at the dance studio?"

// putTraces writes a trace per entry of nodes (the recalled names, the first a seed at
// depth 0, the next at depths 1, 2, … along the list) and returns their ids.
func putTraces(t *testing.T, s *cypher.Store, space string, nodes [][]string) []string {
	t.Helper()
	ctx := context.Background()
	var ids []string
	for _, names := range nodes {
		tr := realm.Trace{ID: fmt.Sprintf("%s-trace-%d", space, len(ids)), Space: space, Query: concurrentQuery, FirstDepth: map[string]int{}, CreatedAt: time.Now()}
		for d, name := range names {
			id := space + ":" + name
			tr.Scores = append(tr.Scores, realm.ScoredID{ID: id, Score: 1 - 0.1*float64(d)})
			tr.FirstDepth[id] = d
		}
		if err := s.PutTrace(ctx, tr); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tr.ID)
	}
	return ids
}

// loggedChain follows the logged edits of one directed edge from its first weight: each
// must start where another ended (no update lost, none applied twice). It returns the
// weight the chain ends at and how many edits it used; ok is false when some edit does
// not fit.
func loggedChain(edits []realm.Edit, start float64) (end float64, used int, ok bool) {
	next := map[uint64][]realm.Edit{}
	for _, e := range edits {
		if e.OldWeight != nil {
			next[math.Float64bits(*e.OldWeight)] = append(next[math.Float64bits(*e.OldWeight)], e)
		}
	}
	w := start
	for {
		es := next[math.Float64bits(w)]
		if len(es) == 0 {
			break
		}
		if len(es) > 1 {
			return w, used, false // two edits read the same weight: one update was lost
		}
		delete(next, math.Float64bits(w))
		w = es[0].NewWeight
		used++
	}
	return w, used, used == len(edits)-countAdds(edits)
}

func countAdds(edits []realm.Edit) int {
	n := 0
	for _, e := range edits {
		if e.Action == realm.EditAdd {
			n++
		}
	}
	return n
}

// TestReconsolidateConcurrent runs 50 reconsolidations at once through the Reconsolidator
// over overlapping subgraphs (REALM.md §4.4).
func TestReconsolidateConcurrent(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	cfg := reconsolidation.DefaultConfig()
	r := reconsolidation.New(s, offline.New(offline.Options{}), cfg, zerolog.Nop())
	strengthenOnly := cfg
	strengthenOnly.MaxLinks = 0 // no learned links (consolidate.go)
	rs := reconsolidation.New(s, offline.New(offline.Options{}), strengthenOnly, zerolog.Nop())
	yes := true

	// Strengthen: a chain n0 → n1 → … → n5 (n2—n3 symmetric). Trace k recalls the window
	// n_i … n_{i+3}, i = k mod 3, seeded at n_i, and its reconsolidation strengthens the
	// three edges of the path to the key node n_{i+3}: even k by client feedback naming
	// it useful (η = 0.5, c = 0.9: 1−w shrinks by 0.55), odd k by a self-audit of an answer
	// citing it (η/2 = 0.25, c = 0.75: by 0.8125). Strengthens commute:
	// w = 1 − (1 − w0)·Π(1 − η_k·c_k) whatever the order the 50 transactions commit in.
	t.Run("Strengthen", func(t *testing.T) {
		var nodes []loopNode
		for i := range 6 {
			nodes = append(nodes, loopNode{fmt.Sprintf("n%d", i), realm.Fact, fmt.Sprintf("Jon practised dance step %d", i), loopAxes(float64(i), 1), ""})
		}
		edges := []loopEdge{
			{"n0", "n1", realm.Precedes, 0.1}, {"n1", "n2", realm.Precedes, 0.3}, {"n2", "n3", realm.Correlates, 0.45},
			{"n3", "n4", realm.Precedes, 1.0 / 3}, {"n4", "n5", realm.Precedes, 0.7},
		}
		space := loopGraph(t, s, nodes, edges)
		var windows [][]string
		remaining := make([]float64, len(edges)) // Π(1 − η_k·c_k) per edge
		for i := range remaining {
			remaining[i] = 1
		}
		for k := range 50 {
			i := k % 3
			windows = append(windows, []string{fmt.Sprintf("n%d", i), fmt.Sprintf("n%d", i+1), fmt.Sprintf("n%d", i+2), fmt.Sprintf("n%d", i+3)})
			factor := 1 - cfg.Eta*0.9
			if k%2 == 1 {
				factor = 1 - cfg.EtaUnconfirmed*0.75
			}
			for j := i; j < i+3; j++ {
				remaining[j] *= factor
			}
		}
		traces := putTraces(t, s, space, windows)
		results := make([]reconsolidation.Result, len(traces))
		errs := make([]error, len(traces))
		var wg sync.WaitGroup
		for k := range traces {
			key := space + ":" + windows[k][3]
			req := reconsolidation.Request{Feedback: &realm.Feedback{Correct: &yes, UsefulNodeIDs: []string{key}}}
			if k%2 == 1 {
				req = reconsolidation.Request{Answer: "Jon learned the step [" + key + "]"}
			}
			wg.Add(1)
			go func() { defer wg.Done(); results[k], errs[k] = rs.Reconsolidate(ctx, space, traces[k], req) }()
		}
		wg.Wait()
		strengthens := 0
		for k, err := range errs {
			if err != nil {
				t.Fatalf("reconsolidation %d: %v", k, err)
			}
			for _, e := range results[k].Edits {
				if e.Action != realm.EditStrengthen {
					t.Errorf("reconsolidation %d: %s edit %+v, want strengthens only", k, e.Action, e)
				}
				strengthens++
			}
			if len(results[k].Rejected) != 0 {
				t.Errorf("reconsolidation %d rejected %+v", k, results[k].Rejected)
			}
		}
		var ids []string
		for _, n := range nodes {
			ids = append(ids, space+":"+n.name)
		}
		got, err := s.InducedEdges(ctx, space, ids)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(edges) + 1; len(got) != want { // n2—n3 is stored both ways
			t.Errorf("%d edges after the reconsolidations, want %d", len(got), want)
		}
		logged, _, err := s.ListEdits(ctx, space, realm.EditFilter{Limit: realm.MaxEditLimit}, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(logged) != strengthens {
			t.Errorf("%d edits logged, %d returned", len(logged), strengthens)
		}
		for i, e := range edges {
			want := 1 - (1-e.w)*remaining[i]
			from, to := space+":"+e.from, space+":"+e.to
			for _, dir := range [][2]string{{from, to}, {to, from}} {
				if dir[0] == to && !e.p.Symmetric() {
					continue
				}
				var ws []float64
				for _, g := range got {
					if g.From == dir[0] && g.To == dir[1] && g.Predicate == e.p {
						ws = append(ws, g.Weight)
					}
				}
				if len(ws) != 1 || math.Abs(ws[0]-want) > 1e-12 {
					t.Errorf("edge %s→%s: weights %v, want [%.15f]", dir[0], dir[1], ws, want)
				}
				var mine []realm.Edit
				for _, l := range logged {
					if l.From == dir[0] && l.To == dir[1] {
						mine = append(mine, l)
					}
				}
				end, used, ok := loggedChain(mine, e.w)
				if !ok || len(ws) != 1 || math.Float64bits(end) != math.Float64bits(ws[0]) {
					t.Errorf("edge %s→%s: the log chains %d of %d edits to %v, the edge holds %v", dir[0], dir[1], used, len(mine), end, ws)
				}
			}
		}
		st, err := s.EditStats(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reconsolidations != 50 || st.Strengthened != int64(strengthens) || st.Added+st.Weakened+st.Reverted != 0 {
			t.Errorf("stats %+v, want 50 reconsolidations of %d strengthens", st, strengthens)
		}
	})

	// Once: ten copies of one feedback sent at once (a client retrying) are applied once;
	// the others are refused with a conflict, under the space's lock.
	t.Run("FeedbackOnce", func(t *testing.T) {
		nodes := []loopNode{
			{"f0", realm.Fact, "Jon opened a dance studio", loopAxes(0, 1), ""},
			{"f1", realm.Fact, "Jon teaches dance at the studio", loopAxes(1, 1), ""},
		}
		space := loopGraph(t, s, nodes, []loopEdge{{"f0", "f1", realm.Precedes, 0.4}})
		obs := []realm.Observation{{ID: "o1", SessionID: "s1", Speaker: "Jon", Content: "I opened a dance studio.", ObservedAt: time.Now()}}
		if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, obs, cypher.Lease{}); err != nil { // the space's node, whose lock orders edits
			t.Fatal(err)
		}
		trace := putTraces(t, s, space, [][]string{{"f0", "f1"}})[0]
		fb := &realm.Feedback{Correct: &yes, UsefulNodeIDs: []string{space + ":f1"}}
		errs := make([]error, 10)
		var wg sync.WaitGroup
		for k := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[k] = rs.Reconsolidate(ctx, space, trace, reconsolidation.Request{Feedback: fb})
			}()
		}
		wg.Wait()
		applied := 0
		for _, err := range errs {
			switch {
			case err == nil:
				applied++
			case realm.ErrorCode(err) != realm.EConflict:
				t.Fatal(err)
			}
		}
		logged, _, err := s.ListEdits(ctx, space, realm.EditFilter{TraceID: trace, Limit: realm.MaxEditLimit}, "")
		if err != nil {
			t.Fatal(err)
		}
		if applied != 1 || len(logged) != 1 {
			t.Errorf("%d feedbacks applied, %d edits logged; want one of each", applied, len(logged))
		}
	})

	// Add: four memories no edge joins; 50 concurrent feedbacks each name two of them
	// useful (the six pairs in turn). Whether a reconsolidation proposes an add or, when
	// a concurrent one has already linked the pair, a strengthen, every pair ends with
	// one correlates edge each way, its weight the add's γ·0.9 then the logged strengthens.
	t.Run("AddOnce", func(t *testing.T) {
		var nodes []loopNode
		for i := range 4 {
			nodes = append(nodes, loopNode{fmt.Sprintf("a%d", i), realm.Fact, fmt.Sprintf("Jon teaches dance class %d", i), loopAxes(float64(i), 1), ""})
		}
		space := loopGraph(t, s, nodes, nil)
		var pairs [][2]string
		for i := range 4 {
			for j := i + 1; j < 4; j++ {
				pairs = append(pairs, [2]string{fmt.Sprintf("a%d", i), fmt.Sprintf("a%d", j)})
			}
		}
		var windows [][]string
		for range 50 {
			windows = append(windows, []string{"a0", "a1", "a2", "a3"})
		}
		traces := putTraces(t, s, space, windows)
		errs := make([]error, len(traces))
		var wg sync.WaitGroup
		for k := range traces {
			p := pairs[k%len(pairs)]
			fb := &realm.Feedback{Correct: &yes, UsefulNodeIDs: []string{space + ":" + p[0], space + ":" + p[1]}}
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[k] = r.Reconsolidate(ctx, space, traces[k], reconsolidation.Request{Feedback: fb})
			}()
		}
		wg.Wait()
		for k, err := range errs {
			if err != nil {
				t.Fatalf("reconsolidation %d: %v", k, err)
			}
		}
		var ids []string
		for _, n := range nodes {
			ids = append(ids, space+":"+n.name)
		}
		got, err := s.InducedEdges(ctx, space, ids)
		if err != nil {
			t.Fatal(err)
		}
		logged, _, err := s.ListEdits(ctx, space, realm.EditFilter{Limit: realm.MaxEditLimit}, "")
		if err != nil {
			t.Fatal(err)
		}
		count := map[string][]float64{}
		for _, e := range got {
			count[e.From+">"+e.To] = append(count[e.From+">"+e.To], e.Weight)
			if e.Predicate != realm.Correlates {
				t.Errorf("edge %s→%s is %s, want correlates", e.From, e.To, e.Predicate)
			}
		}
		gamma, c := cfg.Gamma, 0.9
		add := gamma * c // γ·c (REALM.md §4.3), computed as the rule does, not folded at compile time
		for _, p := range pairs {
			a, b := space+":"+p[0], space+":"+p[1]
			for _, dir := range [][2]string{{a, b}, {b, a}} {
				ws := count[dir[0]+">"+dir[1]]
				if len(ws) != 1 {
					t.Errorf("%s→%s: %d edges %v, want exactly one", dir[0], dir[1], len(ws), ws)
					continue
				}
				var mine []realm.Edit
				for _, l := range logged {
					if l.From == dir[0] && l.To == dir[1] {
						mine = append(mine, l)
					}
				}
				if adds := countAdds(mine); adds != 1 {
					t.Errorf("%s→%s: %d adds logged, want 1", dir[0], dir[1], adds)
				}
				end, used, ok := loggedChain(mine, add)
				wantStrengthens := len(mine) - 1
				want := 1 - (1-add)*math.Pow(1-cfg.Eta*c, float64(wantStrengthens))
				if !ok || math.Float64bits(end) != math.Float64bits(ws[0]) || math.Abs(ws[0]-want) > 1e-12 {
					t.Errorf("%s→%s: weight %v; the log chains %d of %d edits to %v; want %.15f", dir[0], dir[1], ws[0], used, len(mine), end, want)
				}
			}
		}
		if len(got) != 2*len(pairs) {
			t.Errorf("%d edges, want %d: %s", len(got), 2*len(pairs), strings.Join(keysOf(count), ", "))
		}
	})
}

func keysOf(m map[string][]float64) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// gatedAuditor is the offline agent whose audits wait for release, counted.
type gatedAuditor struct {
	agent.Agent
	audits  atomic.Int32
	entered chan struct{}
	release chan struct{}
}

func (g *gatedAuditor) Audit(ctx context.Context, in agent.AuditInput) (agent.AuditOutput, realm.Usage, error) {
	if g.audits.Add(1) == 1 {
		close(g.entered)
	}
	<-g.release
	return g.Agent.Audit(ctx, in)
}

// TestFeedbackAtOnceAuditedOnce: a second feedback on a trace sent while the first is
// being applied is refused before its audit (a model call on the LLM path), not after.
func TestFeedbackAtOnceAuditedOnce(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	ga := &gatedAuditor{Agent: offline.New(offline.Options{}), entered: make(chan struct{}), release: make(chan struct{})}
	r := reconsolidation.New(s, ga, reconsolidation.DefaultConfig(), zerolog.Nop())
	nodes := []loopNode{{"a", realm.Fact, "Jon practised a dance step", loopAxes(0, 1), ""}, {"b", realm.Fact, "Jon opened a dance studio", loopAxes(1, 1), ""}}
	space := loopGraph(t, s, nodes, []loopEdge{{"a", "b", realm.Precedes, 0.5}})
	trace := putTraces(t, s, space, [][]string{{"a", "b"}})[0]
	yes := true
	req := reconsolidation.Request{Feedback: &realm.Feedback{Correct: &yes, UsefulNodeIDs: []string{space + ":b"}}}
	first := make(chan error, 1)
	go func() { _, err := r.Reconsolidate(ctx, space, trace, req); first <- err }()
	select {
	case <-ga.entered:
	case <-time.After(time.Minute):
		t.Fatal("the first feedback's audit did not start")
	}
	second := make(chan error, 1)
	go func() { _, err := r.Reconsolidate(ctx, space, trace, req); second <- err }()
	select { // bounded, so that a broken guard fails instead of hanging; no timing is asserted
	case err := <-second:
		if realm.ErrorCode(err) != realm.EConflict {
			t.Errorf("second feedback while the first is applied: %v, want %s", err, realm.EConflict)
		}
	case <-time.After(time.Minute):
		t.Error("the second feedback waited for an audit of its own")
	}
	close(ga.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if n := ga.audits.Load(); n != 1 {
		t.Errorf("%d audits, want 1", n)
	}
}

// barrierAuditor is the offline agent whose first n audits wait for one another, so that
// they all plan on the graph as it was before any of their edits was applied.
type barrierAuditor struct {
	agent.Agent
	n      int32
	audits atomic.Int32
	all    chan struct{}
}

func (b *barrierAuditor) Audit(ctx context.Context, in agent.AuditInput) (agent.AuditOutput, realm.Usage, error) {
	switch k := b.audits.Add(1); {
	case k == b.n:
		close(b.all)
	case k < b.n:
		<-b.all
	}
	return b.Agent.Audit(ctx, in)
}

// TestFeedbackAtOnceOnOneQuestion: n clients recall one question (n traces) and each
// sends the same feedback on its own trace at once, every audit made before any edit is
// applied. Each feedback is applied as it would have been alone, one after the other: the
// first adds the co-useful link, each other one strengthens it, and each says what it
// applied. The link ends at the weight the same feedbacks give sent one after another,
// and reverting them, the last first, restores every weight to the bit.
func TestFeedbackAtOnceOnOneQuestion(t *testing.T) {
	const n = 6
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	yes := true
	nodes := []loopNode{
		{"a", realm.Fact, "Jon opened a dance studio", loopAxes(0, 1), ""},
		{"b", realm.Fact, "Jon teaches dance at the studio", loopAxes(1, 1), ""},
		{"c", realm.Fact, "Jon practised a dance step", loopAxes(2, 1), ""},
	}
	edges := []loopEdge{{"a", "c", realm.Precedes, 0.5}}
	// feedback sends the n feedbacks through r on n traces of a fresh space, at once or one
	// after another, and returns the space, the results and the edges' weights by
	// "from>to>predicate", the space left out of the names.
	feedback := func(r *reconsolidation.Reconsolidator, atOnce bool) (string, []reconsolidation.Result, map[string]float64) {
		space := loopGraph(t, s, nodes, edges)
		traces := putTraces(t, s, space, slices.Repeat([][]string{{"a", "b", "c"}}, n))
		fb := &realm.Feedback{Correct: &yes, UsefulNodeIDs: []string{space + ":a", space + ":b"}}
		results := make([]reconsolidation.Result, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for k := range traces {
			wg.Add(1)
			send := func() {
				defer wg.Done()
				results[k], errs[k] = r.Reconsolidate(ctx, space, traces[k], reconsolidation.Request{Feedback: fb})
			}
			if atOnce {
				go send()
			} else {
				send()
			}
		}
		wg.Wait()
		for k, err := range errs {
			if err != nil {
				t.Fatalf("feedback %d: %v", k, err)
			}
		}
		got, err := s.InducedEdges(ctx, space, []string{space + ":a", space + ":b", space + ":c"})
		if err != nil {
			t.Fatal(err)
		}
		weights := map[string]float64{}
		for _, e := range got {
			weights[strings.TrimPrefix(e.From, space+":")+">"+strings.TrimPrefix(e.To, space+":")+">"+string(e.Predicate)] = e.Weight
		}
		return space, results, weights
	}
	cfg := reconsolidation.DefaultConfig()
	_, _, sequential := feedback(reconsolidation.New(s, offline.New(offline.Options{}), cfg, zerolog.Nop()), false)
	if _, ok := sequential["a>b>correlates"]; !ok {
		t.Fatalf("sequential feedback: edges %v, want a learned correlates link a→b", sequential)
	}
	ba := &barrierAuditor{Agent: offline.New(offline.Options{}), n: n, all: make(chan struct{})}
	space, results, weights := feedback(reconsolidation.New(s, ba, cfg, zerolog.Nop()), true)
	for k, res := range results {
		if len(res.Edits) == 0 {
			t.Errorf("feedback %d applied no edit: %+v", k, res)
		}
	}
	if len(weights) != len(sequential) {
		t.Errorf("edges at once %v, one after another %v", weights, sequential)
	}
	for k, w := range sequential {
		if math.Float64bits(weights[k]) != math.Float64bits(w) {
			t.Errorf("edge %s: %v at once, %v one after another", k, weights[k], w)
		}
	}
	// Revert the last applied first: the one that left a→b heaviest.
	ab := func(res reconsolidation.Result) float64 {
		for _, e := range res.Edits {
			if e.From == space+":a" && e.To == space+":b" {
				return e.NewWeight
			}
		}
		return 0
	}
	slices.SortFunc(results, func(x, y reconsolidation.Result) int { return cmp.Compare(ab(y), ab(x)) })
	r := reconsolidation.New(s, offline.New(offline.Options{}), cfg, zerolog.Nop())
	for _, res := range results {
		if _, err := r.Revert(ctx, space, res.ReconsolidationID); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.InducedEdges(ctx, space, []string{space + ":a", space + ":b", space + ":c"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Predicate != realm.Precedes || math.Float64bits(got[0].Weight) != math.Float64bits(0.5) {
		t.Errorf("after reverting every feedback: %+v, want a→c precedes 0.5 alone", got)
	}
}
