package cypher_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// editTestRule is the update rule of REALM.md §4.3 with γ = 0.8, η = 0.5, w_min = 0.05,
// written out here so that the store's tests do not depend on the reconsolidation package.
func editTestRule(action realm.EditAction, old, c float64) float64 {
	const gamma, eta, wMin = 0.8, 0.5, 0.05
	var w float64
	switch action {
	case realm.EditAdd:
		w = gamma * c
	case realm.EditStrengthen:
		w = old + eta*c*(1-old)
	case realm.EditWeaken:
		w = old - eta*c*(old-wMin)
	}
	return min(max(w, wMin), 1)
}

// editGraph writes n memories into a fresh space, and edges between them given as
// (from index, to index, predicate, weight); it returns the space and the memory ids.
func editGraph(t *testing.T, s *cypher.Store, n int, edges ...editTestEdge) (string, []string) {
	t.Helper()
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() {
		_ = s.RemoveFixture(context.WithoutCancel(ctx), space)
		_ = s.DeleteEdits(context.WithoutCancel(ctx), space)
	})
	var nodes []realm.Node
	var ids []string
	for i := range n {
		id := uuid.NewString()
		ids = append(ids, id)
		nodes = append(nodes, realm.Node{ID: id, Type: realm.Event, Name: fmt.Sprintf("m%d", i), Content: fmt.Sprintf("memory %d", i)})
	}
	var es []realm.Edge
	for _, e := range edges {
		es = append(es, realm.Edge{ID: uuid.NewString(), From: ids[e.from], To: ids[e.to], Predicate: e.p, Weight: e.w})
	}
	if err := s.PutMemories(ctx, space, nodes, es); err != nil {
		t.Fatal(err)
	}
	return space, ids
}

type editTestEdge struct {
	from, to int
	p        realm.Predicate
	w        float64
}

// edgeWeights maps "from>to>predicate" to the weight of every edge among ids.
func edgeWeights(t *testing.T, s *cypher.Store, space string, ids []string) map[string][]float64 {
	t.Helper()
	edges, err := s.InducedEdges(context.Background(), space, ids)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]float64{}
	for _, e := range edges {
		k := e.From + ">" + e.To + ">" + string(e.Predicate)
		out[k] = append(out[k], e.Weight)
	}
	return out
}

func edgeKey(from, to string, p realm.Predicate) string { return from + ">" + to + ">" + string(p) }

func batch(trace string, edits ...realm.EditProposal) cypher.EditBatch {
	return cypher.EditBatch{
		ReconsolidationID: uuid.NewString(), TraceID: trace, Source: realm.EditSourceAuto,
		Time: time.Now(), Edits: edits, NewWeight: editTestRule, Step: editTestStep, Floor: 0.05,
	}
}

func TestApplyEdits(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		space, ids := editGraph(t, s, 3,
			editTestEdge{0, 1, realm.Precedes, 0.5},
			editTestEdge{1, 2, realm.Correlates, 0.4}, // symmetric: the fixture writes 2→1 too
		)
		b := batch("trace-1",
			realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1},
			realm.EditProposal{From: ids[1], To: ids[2], Action: realm.EditWeaken, Predicate: realm.Correlates, Confidence: 0.8},
			realm.EditProposal{From: ids[0], To: ids[2], Action: realm.EditAdd, Predicate: realm.Precedes, Confidence: 0.9},
		)
		applied, err := s.ApplyEdits(ctx, space, b)
		if err != nil {
			t.Fatal(err)
		}
		// strengthen: 0.5 + 0.5·1·0.5 = 0.75; weaken: 0.4 − 0.5·0.8·0.35 = 0.26 (both
		// directions); add: 0.8·0.9 = 0.72.
		want := map[string]float64{
			edgeKey(ids[0], ids[1], realm.Precedes):   0.75,
			edgeKey(ids[1], ids[2], realm.Correlates): 0.26,
			edgeKey(ids[2], ids[1], realm.Correlates): 0.26,
			edgeKey(ids[0], ids[2], realm.Precedes):   0.72,
		}
		got := edgeWeights(t, s, space, ids)
		for k, w := range want {
			if len(got[k]) != 1 || math.Abs(got[k][0]-w) > 1e-12 {
				t.Errorf("edge %s: weights %v, want [%g]", k, got[k], w)
			}
		}
		if len(applied) != 4 {
			t.Fatalf("%d edits logged, want 4 (weaken of a symmetric edge counts twice): %+v", len(applied), applied)
		}
		listed, _, err := s.ListEdits(ctx, space, realm.EditFilter{TraceID: "trace-1"}, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(listed) != 4 {
			t.Fatalf("listed %d edits, want 4", len(listed))
		}
		for _, e := range listed {
			if e.ReconsolidationID != b.ReconsolidationID || e.Source != realm.EditSourceAuto || e.Space != space || e.EdgeID == "" || e.Time.IsZero() {
				t.Errorf("edit logged as %+v", e)
			}
			if (e.Action == realm.EditAdd) != (e.OldWeight == nil) {
				t.Errorf("%s edit has old weight %v", e.Action, e.OldWeight)
			}
			if e.Action == realm.EditStrengthen && (*e.OldWeight != 0.5 || e.NewWeight != 0.75) {
				t.Errorf("strengthen logged %v → %v, want 0.5 → 0.75", *e.OldWeight, e.NewWeight)
			}
		}
		byNode, _, _ := s.ListEdits(ctx, space, realm.EditFilter{NodeID: ids[0]}, "")
		future, _, _ := s.ListEdits(ctx, space, realm.EditFilter{Since: time.Now().Add(time.Hour)}, "")
		if len(byNode) != 2 || len(future) != 0 {
			t.Errorf("filters: %d edits touch m0 (want 2), %d in the future (want 0)", len(byNode), len(future))
		}
		st, err := s.EditStats(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		if st != (realm.EditStats{Reconsolidations: 1, Added: 1, Strengthened: 1, Weakened: 2}) {
			t.Errorf("stats %+v", st)
		}
		hist, err := s.EdgeWeightHistogram(ctx, space, 10)
		if err != nil {
			t.Fatal(err)
		}
		if hist[2] != 2 || hist[7] != 2 { // 0.26, 0.26; 0.72, 0.75
			t.Errorf("histogram %v", hist)
		}
		// The space's stats carry the same totals and histogram (GET …/stats).
		all, err := s.Stats(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		if all.Reconsolidation != st || all.WeightHistogram != [10]int64(hist) || all.Edges != 4 {
			t.Errorf("space stats: reconsolidation %+v (edit stats %+v), histogram %v (%v), %d edges", all.Reconsolidation, st, all.WeightHistogram, hist, all.Edges)
		}
	})
	// Edits planned on edges that have changed since (an add of an edge now there, a
	// strengthen of one now gone) apply nothing, not even the batch's other edits, and
	// leave the graph's version where it was: the caller plans again.
	t.Run("Stale", func(t *testing.T) {
		space, ids := editGraph(t, s, 3, editTestEdge{0, 1, realm.Precedes, 0.5}, editTestEdge{1, 2, realm.Precedes, 0.4})
		if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, []realm.Observation{{ID: "o1", SessionID: "s1", Speaker: "Jon", Content: "hello", ObservedAt: time.Now()}}, cypher.Lease{}); err != nil {
			t.Fatal(err) // the space's node, whose graph_version an apply moves
		}
		strengthen := realm.EditProposal{From: ids[1], To: ids[2], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1}
		if _, err := s.ApplyEdits(ctx, space, batch("t", strengthen)); err != nil { // gives the space a graph_version
			t.Fatal(err)
		}
		before := edgeWeights(t, s, space, ids)
		counts, err := s.SpaceCounts(ctx, space)
		if err != nil || counts.GraphVersion == "" {
			t.Fatalf("space counts %+v, %v", counts, err)
		}
		for name, stale := range map[string]realm.EditProposal{
			"AddOfAnEdgeThere":    {From: ids[0], To: ids[1], Action: realm.EditAdd, Predicate: realm.Precedes, Confidence: 1},
			"StrengthenOfNoEdge":  {From: ids[0], To: ids[2], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1},
			"WeakenOfAnotherType": {From: ids[0], To: ids[1], Action: realm.EditWeaken, Predicate: realm.Implies, Confidence: 1},
		} {
			applied, err := s.ApplyEdits(ctx, space, batch("t", strengthen, stale))
			if !errors.Is(err, cypher.ErrEditsStale) || len(applied) != 0 {
				t.Errorf("%s: %d edits applied, error %v; want none and %v", name, len(applied), err, cypher.ErrEditsStale)
			}
		}
		sameWeights(t, before, edgeWeights(t, s, space, ids))
		listed, _, err := s.ListEdits(ctx, space, realm.EditFilter{}, "")
		if err != nil || len(listed) != 1 {
			t.Errorf("%d edits logged (%v), want the first strengthen's alone", len(listed), err)
		}
		if after, err := s.SpaceCounts(ctx, space); err != nil || after.GraphVersion != counts.GraphVersion {
			t.Errorf("graph version %q (%v) after the stale batches, %q before", after.GraphVersion, err, counts.GraphVersion)
		}
	})
	// An added edge's id is derived from its space, ends and type: the same feedback over
	// the same graph (here again after a revert) adds the same edges, so that the read
	// path's ties by id fall the same way in two runs.
	t.Run("AddedIDsDerived", func(t *testing.T) {
		space, ids := editGraph(t, s, 3)
		add := func() map[string]string {
			applied, err := s.ApplyEdits(ctx, space, batch("t",
				realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditAdd, Predicate: realm.Triggers, Confidence: 1},
				realm.EditProposal{From: ids[0], To: ids[2], Action: realm.EditAdd, Predicate: realm.Triggers, Confidence: 1},
				realm.EditProposal{From: ids[0], To: ids[2], Action: realm.EditAdd, Predicate: realm.Precedes, Confidence: 1}))
			if err != nil || len(applied) != 3 {
				t.Fatalf("%d edits applied (%v), want 3", len(applied), err)
			}
			out := map[string]string{}
			for _, e := range applied {
				out[edgeKey(e.From, e.To, e.Predicate)] = e.EdgeID
			}
			if len(out) != 3 || out[edgeKey(ids[0], ids[1], realm.Triggers)] == out[edgeKey(ids[0], ids[2], realm.Triggers)] ||
				out[edgeKey(ids[0], ids[2], realm.Triggers)] == out[edgeKey(ids[0], ids[2], realm.Precedes)] {
				t.Fatalf("added edges' ids %v: want one of its own for each", out)
			}
			return out
		}
		first := add()
		listed, _, err := s.ListEdits(ctx, space, realm.EditFilter{}, "")
		if err != nil || len(listed) != 3 {
			t.Fatalf("%d edits listed (%v)", len(listed), err)
		}
		if _, err := s.RevertReconsolidation(ctx, space, listed[0].ReconsolidationID, time.Now()); err != nil {
			t.Fatal(err)
		}
		if w := edgeWeights(t, s, space, ids); len(w) != 0 {
			t.Fatalf("edges left after the revert: %v", w)
		}
		if again := add(); !reflect.DeepEqual(again, first) {
			t.Errorf("added again: ids %v, first %v", again, first)
		}
	})
}

// editTestStep is editTestRule's strengthen and weaken as steps toward a target.
func editTestStep(action realm.EditAction, c float64) (rate, target float64) {
	if action == realm.EditWeaken {
		return 0.5 * c, 0.05
	}
	return 0.5 * c, 1
}

// ApplyEdits is one statement (edit_batch) with the rule as steps toward a target; it
// gives the weights editTestRule gives, to the bit, and logs the edits in their order (an
// edge edited twice, a symmetric one, an add, an add to another space's memory, skipped,
// an edit of an edge the batch added); a revert restores every weight exactly.
func TestApplyEditsOneStatement(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	edges := []editTestEdge{{0, 1, realm.Precedes, 0.5}, {1, 2, realm.Correlates, 0.4}, {2, 3, realm.Enables, 0.7}}
	_, other := editGraph(t, s, 1)
	space, ids := editGraph(t, s, 4, edges...)
	e := func(from, to int, a realm.EditAction, p realm.Predicate, c float64) realm.EditProposal {
		return realm.EditProposal{From: ids[from], To: ids[to], Action: a, Predicate: p, Confidence: c}
	}
	b := batch("trace-once",
		e(0, 1, realm.EditStrengthen, realm.Precedes, 1),
		e(0, 1, realm.EditStrengthen, realm.Precedes, 0.6),
		e(1, 2, realm.EditWeaken, realm.Correlates, 0.8),
		e(0, 2, realm.EditAdd, realm.Precedes, 0.9),
		e(0, 2, realm.EditStrengthen, realm.Precedes, 0.5),
		realm.EditProposal{From: ids[3], To: other[0], Action: realm.EditAdd, Predicate: realm.Implies, Confidence: 1},
		e(0, 1, realm.EditWeaken, realm.Precedes, 0.3),
	)
	applied, err := s.ApplyEdits(ctx, space, b)
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]string{}
	for i, id := range ids {
		index[id] = fmt.Sprint(i)
	}
	var logged []string
	for _, a := range applied {
		old := "none"
		if a.OldWeight != nil {
			old = fmt.Sprint(*a.OldWeight)
		}
		logged = append(logged, fmt.Sprintf("%s>%s %s %s %s→%v", index[a.From], index[a.To], a.Predicate, a.Action, old, a.NewWeight))
		if a.ID == "" || a.EdgeID == "" || a.ReconsolidationID != b.ReconsolidationID || a.Space != space {
			t.Errorf("applied edit %+v", a)
		}
	}
	// The rule applied by hand, edit after edit.
	w01a := editTestRule(realm.EditStrengthen, 0.5, 1)
	w01b := editTestRule(realm.EditStrengthen, w01a, 0.6)
	w12 := editTestRule(realm.EditWeaken, 0.4, 0.8)
	w02a := editTestRule(realm.EditAdd, 0, 0.9)
	w02b := editTestRule(realm.EditStrengthen, w02a, 0.5)
	w01c := editTestRule(realm.EditWeaken, w01b, 0.3)
	want := []string{
		fmt.Sprintf("0>1 precedes strengthen 0.5→%v", w01a),
		fmt.Sprintf("0>1 precedes strengthen %v→%v", w01a, w01b),
		fmt.Sprintf("1>2 correlates weaken 0.4→%v", w12),
		fmt.Sprintf("2>1 correlates weaken 0.4→%v", w12),
		fmt.Sprintf("0>2 precedes add none→%v", w02a),
		fmt.Sprintf("0>2 precedes strengthen %v→%v", w02a, w02b),
		fmt.Sprintf("0>1 precedes weaken %v→%v", w01b, w01c),
	}
	if !slices.Equal(logged, want) {
		t.Errorf("logged:\n%s\nwant:\n%s", strings.Join(logged, "\n"), strings.Join(want, "\n"))
	}
	weights := map[string][]float64{}
	for k, w := range edgeWeights(t, s, space, ids) {
		for i, id := range ids {
			k = strings.ReplaceAll(k, id, fmt.Sprint(i))
		}
		weights[k] = w
	}
	// An edge the batch adds ends at its last logged weight, as the others do.
	wantWeights := map[string][]float64{
		"0>1>precedes": {w01c}, "1>2>correlates": {w12}, "2>1>correlates": {w12}, "0>2>precedes": {w02b}, "2>3>enables": {0.7},
	}
	if !reflect.DeepEqual(weights, wantWeights) {
		t.Errorf("weights %v, want %v", weights, wantWeights)
	}
	listed, _, err := s.ListEdits(ctx, space, realm.EditFilter{TraceID: "trace-once"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(want) {
		t.Errorf("the log lists %d edits, want %d", len(listed), len(want))
	}
	if st, err := s.EditStats(ctx, space); err != nil || st != (realm.EditStats{Reconsolidations: 1, Added: 1, Strengthened: 3, Weakened: 3}) {
		t.Errorf("stats %+v, %v", st, err)
	}
	if _, err := s.RevertReconsolidation(ctx, space, b.ReconsolidationID, time.Now()); err != nil {
		t.Fatal(err)
	}
	got := edgeWeights(t, s, space, ids)
	for _, e := range edges {
		if w := got[edgeKey(ids[e.from], ids[e.to], e.p)]; len(w) != 1 || w[0] != e.w {
			t.Errorf("after the revert, edge %d>%d %s: %v, want [%g]", e.from, e.to, e.p, w, e.w)
		}
	}
	if len(got) != 4 { // the three edges and the reverse of the symmetric one
		t.Errorf("after the revert: %d edges, want 4 (%v)", len(got), got)
	}
}

// TestApplyEditsConcurrent: strengthens commute, so 50 concurrent reconsolidations over
// overlapping edges must end at w = 1 − (1−w0)·Π(1−η·c_i) whatever their order; and 20
// concurrent adds of one edge write it once, the others finding it there (stale).
func TestApplyEditsConcurrent(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	t.Run("Strengthen", func(t *testing.T) {
		var edges []editTestEdge
		for i := range 5 {
			edges = append(edges, editTestEdge{i, i + 1, realm.Precedes, 0.1 + 0.05*float64(i)})
		}
		space, ids := editGraph(t, s, 6, edges...)
		remaining := make([]float64, len(edges)) // Π(1−η·c_i) per edge
		for i := range remaining {
			remaining[i] = 1
		}
		var batches []cypher.EditBatch
		for k := range 50 {
			var edits []realm.EditProposal
			for j := range 3 { // edges k, k+1, k+2 (mod 5): every pair of batches may overlap
				i := (k + j) % len(edges)
				c := 0.1 + 0.3*float64((k*7+j)%10)/10
				edits = append(edits, realm.EditProposal{From: ids[i], To: ids[i+1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: c})
				remaining[i] *= 1 - 0.5*c
			}
			batches = append(batches, batch(fmt.Sprintf("trace-%d", k), edits...))
		}
		var wg sync.WaitGroup
		errs := make([]error, len(batches))
		for k := range batches {
			wg.Add(1)
			go func() { defer wg.Done(); _, errs[k] = s.ApplyEdits(ctx, space, batches[k]) }()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got := edgeWeights(t, s, space, ids)
		for i, e := range edges {
			want := 1 - (1-e.w)*remaining[i]
			w := got[edgeKey(ids[i], ids[i+1], realm.Precedes)]
			if len(w) != 1 || math.Abs(w[0]-want) > 1e-12 {
				t.Errorf("edge %d: weight %v, want %.15f", i, w, want)
			}
		}
		st, err := s.EditStats(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		if st.Strengthened != 150 || st.Reconsolidations != 50 {
			t.Errorf("stats %+v, want 150 strengthens in 50 reconsolidations", st)
		}
	})
	t.Run("AddOnce", func(t *testing.T) {
		space, ids := editGraph(t, s, 2)
		var wg sync.WaitGroup
		errs := make([]error, 20)
		logged := make([]int, 20)
		for k := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				applied, err := s.ApplyEdits(ctx, space, batch("t", realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditAdd, Predicate: realm.Correlates, Confidence: 0.9}))
				errs[k], logged[k] = err, len(applied)
			}()
		}
		wg.Wait()
		total := 0
		stale := 0
		for k, err := range errs {
			switch {
			case errors.Is(err, cypher.ErrEditsStale):
				stale++
			case err != nil:
				t.Fatal(err)
			}
			total += logged[k]
		}
		if stale != len(errs)-1 {
			t.Errorf("%d adds found the edge there, want all but the first (%d)", stale, len(errs)-1)
		}
		got := edgeWeights(t, s, space, ids)
		if len(got[edgeKey(ids[0], ids[1], realm.Correlates)]) != 1 || len(got[edgeKey(ids[1], ids[0], realm.Correlates)]) != 1 {
			t.Errorf("after 20 concurrent adds: %v, want one edge each way", got)
		}
		if total != 2 {
			t.Errorf("%d add edits logged, want 2 (one per direction)", total)
		}
	})
}

// sameWeights fails t unless after holds the edges of before, each with its weight to the
// bit, and no other.
func sameWeights(t *testing.T, before, after map[string][]float64) {
	t.Helper()
	if len(after) != len(before) {
		t.Errorf("edges after revert %v, before %v (an added edge must be gone)", after, before)
	}
	for k, ws := range before {
		if len(after[k]) != 1 || math.Float64bits(after[k][0]) != math.Float64bits(ws[0]) {
			t.Errorf("edge %s: %v after revert, %v before", k, after[k], ws)
		}
	}
}

func TestRevertReconsolidation(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space, ids := editGraph(t, s, 3,
		editTestEdge{0, 1, realm.Precedes, 0.1 + 0.2}, // 0.30000000000000004: bits matter
		editTestEdge{1, 2, realm.Implies, 1.0 / 3},
	)
	before := edgeWeights(t, s, space, ids)
	snapshot, err := s.EdgeWeights(ctx, space)
	if err != nil || len(snapshot) != 2 {
		t.Fatalf("edge weights %v, %v; want two edges", snapshot, err)
	}
	first := batch("t1",
		realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 0.7},
		realm.EditProposal{From: ids[1], To: ids[2], Action: realm.EditWeaken, Predicate: realm.Implies, Confidence: 0.3},
		realm.EditProposal{From: ids[0], To: ids[2], Action: realm.EditAdd, Predicate: realm.Correlates, Confidence: 0.6},
	)
	applied, err := s.ApplyEdits(ctx, space, first)
	if err != nil {
		t.Fatal(err)
	}
	second := batch("t1", realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 0.9})
	if _, err := s.ApplyEdits(ctx, space, second); err != nil {
		t.Fatal(err)
	}
	afterSecond := edgeWeights(t, s, space, ids)[edgeKey(ids[0], ids[1], realm.Precedes)][0]

	t.Run("OK", func(t *testing.T) {
		// Revert the second by the id of its one edit: back to the first's weights.
		listed, _, _ := s.ListEdits(ctx, space, realm.EditFilter{Limit: 1}, "")
		if len(listed) != 1 || listed[0].ReconsolidationID != second.ReconsolidationID {
			t.Fatalf("newest edit %+v, want the second reconsolidation's", listed)
		}
		reverted, err := s.RevertReconsolidation(ctx, space, listed[0].ID, time.Now())
		if err != nil || len(reverted) != 1 {
			t.Fatalf("revert second: %d edits, %v", len(reverted), err)
		}
		w := edgeWeights(t, s, space, ids)[edgeKey(ids[0], ids[1], realm.Precedes)][0]
		if math.Float64bits(w) != math.Float64bits(*reverted[0].OldWeight) || w == afterSecond {
			t.Errorf("after revert of the second: %v, want %v", w, *reverted[0].OldWeight)
		}
		// Revert the first by its reconsolidation id: the weights of before, to the bit.
		reverted, err = s.RevertReconsolidation(ctx, space, first.ReconsolidationID, time.Now())
		if err != nil || len(reverted) != len(applied) {
			t.Fatalf("revert first: %d edits (want %d), %v", len(reverted), len(applied), err)
		}
		sameWeights(t, before, edgeWeights(t, s, space, ids))
		restored, err := s.EdgeWeights(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		if len(restored) != len(snapshot) {
			t.Errorf("edge weights after revert %v, before %v", restored, snapshot)
		}
		for k, w := range snapshot {
			if got, ok := restored[k]; !ok || math.Float64bits(got) != math.Float64bits(w) {
				t.Errorf("EdgeWeights %s: %v after revert, %v before", k, got, w)
			}
		}
		st, _ := s.EditStats(ctx, space)
		if st.Reverted != int64(len(applied)+1) || st.Strengthened+st.Weakened+st.Added != 0 || st.Reconsolidations != 2 {
			t.Errorf("stats after revert %+v", st)
		}
		if all, _ := s.Stats(ctx, space); all.Reconsolidation != st {
			t.Errorf("space stats after revert: %+v, want %+v", all.Reconsolidation, st)
		}
	})
	t.Run("Twice", func(t *testing.T) {
		reverted, err := s.RevertReconsolidation(ctx, space, first.ReconsolidationID, time.Now())
		if err != nil || len(reverted) != 0 {
			t.Fatalf("second revert: %d edits, %v; want a no-op", len(reverted), err)
		}
		after := edgeWeights(t, s, space, ids)
		for k, ws := range before {
			if math.Float64bits(after[k][0]) != math.Float64bits(ws[0]) {
				t.Errorf("edge %s moved on a second revert", k)
			}
		}
	})
	t.Run("EdgesEditedTwice", func(t *testing.T) {
		// One reconsolidation strengthens an edge twice and adds an edge it then
		// strengthens: the revert gives the first its weight of before both, and deletes
		// the second.
		twice := batch("t2",
			realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 0.7},
			realm.EditProposal{From: ids[0], To: ids[2], Action: realm.EditAdd, Predicate: realm.Enables, Confidence: 0.6},
			realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 0.9},
			realm.EditProposal{From: ids[0], To: ids[2], Action: realm.EditStrengthen, Predicate: realm.Enables, Confidence: 0.9},
		)
		applied, err := s.ApplyEdits(ctx, space, twice)
		if err != nil || len(applied) != 4 {
			t.Fatalf("applied %d edits (want 4), %v", len(applied), err)
		}
		if edited := edgeWeights(t, s, space, ids); len(edited) != len(before)+1 {
			t.Fatalf("edges after the edits %v: want one added", edited)
		}
		reverted, err := s.RevertReconsolidation(ctx, space, twice.ReconsolidationID, time.Now())
		if err != nil || len(reverted) != 4 {
			t.Fatalf("revert: %d edits (want 4), %v", len(reverted), err)
		}
		sameWeights(t, before, edgeWeights(t, s, space, ids))
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := s.RevertReconsolidation(ctx, space, "no-such-id", time.Now())
		if realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("got %v, want not_found", err)
		}
	})
}

// TestEditsTenancy: edits of space A never touch space B.
func TestEditsTenancy(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	spaceA, a := editGraph(t, s, 2, editTestEdge{0, 1, realm.Precedes, 0.5})
	spaceB, b := editGraph(t, s, 2, editTestEdge{0, 1, realm.Precedes, 0.5})
	// Space A's reconsolidation naming B's memories changes nothing: an add to one is
	// skipped, a strengthen of B's edge finds none in A.
	applied, err := s.ApplyEdits(ctx, spaceA, batch("t",
		realm.EditProposal{From: a[0], To: b[1], Action: realm.EditAdd, Predicate: realm.Correlates, Confidence: 1},
	))
	if err != nil || len(applied) != 0 {
		t.Errorf("space A applied %d edits to space B's memories (%v)", len(applied), err)
	}
	applied, err = s.ApplyEdits(ctx, spaceA, batch("t",
		realm.EditProposal{From: b[0], To: b[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1},
	))
	if !errors.Is(err, cypher.ErrEditsStale) || len(applied) != 0 {
		t.Errorf("space A applied %d edits to space B's edge (%v), want none and %v", len(applied), err, cypher.ErrEditsStale)
	}
	own := batch("t", realm.EditProposal{From: a[0], To: a[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1})
	if _, err := s.ApplyEdits(ctx, spaceA, own); err != nil {
		t.Fatal(err)
	}
	if w := edgeWeights(t, s, spaceB, b)[edgeKey(b[0], b[1], realm.Precedes)]; len(w) != 1 || w[0] != 0.5 {
		t.Errorf("space B's edge is %v, want [0.5]", w)
	}
	if edges, _ := s.InducedEdges(ctx, spaceA, append(a, b...)); len(edges) != 1 {
		t.Errorf("space A has %d edges, want 1", len(edges))
	}
	listed, _, _ := s.ListEdits(ctx, spaceB, realm.EditFilter{}, "")
	if len(listed) != 0 {
		t.Errorf("space B lists %d edits", len(listed))
	}
	if _, err := s.RevertReconsolidation(ctx, spaceB, own.ReconsolidationID, time.Now()); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("space B reverted space A's reconsolidation: %v", err)
	}
	if st, _ := s.EditStats(ctx, spaceB); st != (realm.EditStats{}) {
		t.Errorf("space B stats %+v", st)
	}
}

// TestListEditsPages: the log pages by cursor, newest first, past any limit: pages of
// every size join into the whole log, in its order, each edit once, also among edits
// logged at the same instant by two reconsolidations (ties broken by seq, then id); the
// filters hold on every page; a cursor not given out is EInvalid.
func TestListEditsPages(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space, ids := editGraph(t, s, 4,
		editTestEdge{0, 1, realm.Precedes, 0.5}, editTestEdge{1, 2, realm.Precedes, 0.5}, editTestEdge{2, 3, realm.Precedes, 0.5})
	strengthen := func(from, to int) realm.EditProposal {
		return realm.EditProposal{From: ids[from], To: ids[to], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 0.5}
	}
	at := time.Now().UTC().Truncate(time.Second)
	for i, b := range []cypher.EditBatch{
		batch("t1", strengthen(0, 1), strengthen(1, 2), strengthen(2, 3)),
		batch("t2", strengthen(0, 1), strengthen(1, 2)), // the same instant as t1's
		batch("t3", strengthen(2, 3)),
	} {
		b.Time = at.Add(time.Duration(i/2) * time.Second)
		if _, err := s.ApplyEdits(ctx, space, b); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []realm.EditFilter{{}, {NodeID: ids[1]}, {TraceID: "t1"}} {
		f.Limit = realm.MaxEditLimit
		whole, next, err := s.ListEdits(ctx, space, f, "")
		if err != nil || next != "" {
			t.Fatalf("%+v: whole log: next %q, %v", f, next, err)
		}
		for limit := 1; limit <= len(whole); limit++ {
			f.Limit = limit
			var paged []realm.Edit
			for cursor, pages := "", 0; ; pages++ {
				page, next, err := s.ListEdits(ctx, space, f, cursor)
				if err != nil || len(page) > limit || pages > len(whole) {
					t.Fatalf("%+v: page %d: %d edits, %v", f, pages, len(page), err)
				}
				paged = append(paged, page...)
				if next == "" {
					break
				}
				cursor = next
			}
			if !reflect.DeepEqual(editIDs(paged), editIDs(whole)) {
				t.Errorf("%+v, limit %d: pages %v, want %v", f, limit, editIDs(paged), editIDs(whole))
			}
		}
	}
	all, _, _ := s.ListEdits(ctx, space, realm.EditFilter{}, "")
	if len(all) != 6 || all[0].TraceID != "t3" || all[5].TraceID == "t3" {
		t.Errorf("log %v, want 6 edits, t3's first", all)
	}
	for _, bad := range []string{"x", "MjAyMy0wMS0wMVQwMDowMDowMFp8eA"} { // not base64; a time and no seq
		if _, _, err := s.ListEdits(ctx, space, realm.EditFilter{}, bad); realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("cursor %q: %v, want invalid", bad, err)
		}
	}
}

func editIDs(edits []realm.Edit) []string {
	out := make([]string, len(edits))
	for i, e := range edits {
		out[i] = e.ID
	}
	return out
}
