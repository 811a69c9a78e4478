package reconsolidation_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/reconsolidation"
)

// traced writes a small graph and the trace of a recall over it into a fresh space:
// seed s leads to key evidence k (s—k correlates 0.5), k precedes m (0.6), where m is
// about something else. It returns the space, the trace id and the ids s, k, m.
func traced(t *testing.T, s *cypher.Store) (space, traceID string, ids map[string]string) {
	t.Helper()
	ctx := context.Background()
	space = cyphertest.NewSpace(t)
	t.Cleanup(func() {
		_ = s.RemoveFixture(context.WithoutCancel(ctx), space)
		_ = s.DeleteEdits(context.WithoutCancel(ctx), space)
	})
	ids = map[string]string{"s": uuid.NewString(), "k": uuid.NewString(), "m": uuid.NewString()}
	may := time.Date(2023, 5, 7, 0, 0, 0, 0, time.UTC)
	nodes := []realm.Node{
		{ID: ids["s"], Type: realm.Fact, Name: "painting", Content: "Painting class on Tuesdays"},
		{ID: ids["k"], Type: realm.Event, Name: "support group", Content: "Caroline went to the LGBTQ support group on 7 May 2023", TStart: &may},
		{ID: ids["m"], Type: realm.Event, Name: "shoes", Content: "Melanie bought new running shoes"},
	}
	edges := []realm.Edge{
		{ID: uuid.NewString(), From: ids["s"], To: ids["k"], Predicate: realm.Correlates, Weight: 0.5},
		{ID: uuid.NewString(), From: ids["k"], To: ids["m"], Predicate: realm.Precedes, Weight: 0.6},
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	traceID = uuid.NewString()
	err := s.PutTrace(ctx, realm.Trace{
		ID: traceID, Space: space, Query: "When did Caroline go to the LGBTQ support group?",
		Scores:     []realm.ScoredID{{ID: ids["s"], Score: 0.9}, {ID: ids["k"], Score: 0.7}, {ID: ids["m"], Score: 0.3}},
		FirstDepth: map[string]int{ids["s"]: 0, ids["k"]: 1, ids["m"]: 1},
		CreatedAt:  time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return space, traceID, ids
}

func weights(t *testing.T, s *cypher.Store, space string, ids map[string]string) map[string]float64 {
	t.Helper()
	edges, err := s.InducedEdges(context.Background(), space, []string{ids["s"], ids["k"], ids["m"]})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, e := range edges {
		out[e.From+">"+e.To+">"+string(e.Predicate)] = e.Weight
	}
	return out
}

func TestReconsolidate(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	cfg := reconsolidation.DefaultConfig()
	r := reconsolidation.New(s, offline.New(offline.Options{}), cfg, zerolog.Nop())

	t.Run("Feedback", func(t *testing.T) {
		space, traceID, ids := traced(t, s)
		before := weights(t, s, space, ids)
		yes := true
		res, err := r.Reconsolidate(ctx, space, traceID, reconsolidation.Request{
			Feedback: &realm.Feedback{Correct: &yes, UsefulNodeIDs: []string{ids["k"]}, MisleadingNodeIDs: []string{ids["m"]}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Confirmed || res.Labels[ids["k"]] != realm.KeyEvidence || res.Labels[ids["m"]] != realm.Misleading {
			t.Errorf("result %+v", res)
		}
		// Confirmed, η = 0.5, c = 0.9: k→m 0.6 → 0.6 − 0.45·0.55 = 0.3525; s↔k, the path from
		// the seed to the useful k, stays 0.5 both ways: the learned link to k replaces its
		// strengthening, which every later query crossing s↔k would feel.
		after := weights(t, s, space, ids)
		want := map[string]float64{
			ids["s"] + ">" + ids["k"] + ">correlates": 0.5,
			ids["k"] + ">" + ids["s"] + ">correlates": 0.5,
			ids["k"] + ">" + ids["m"] + ">precedes":   0.3525,
		}
		for k, w := range want {
			if math.Abs(after[k]-w) > 1e-12 {
				t.Errorf("edge %s: %v, want %v", k, after[k], w)
			}
		}
		// And two learned links carrying the query (consolidate.go): to k from its anchor,
		// labelled key evidence, and to m from k, labelled misleading.
		if len(res.Edits) != 3 {
			t.Errorf("%d edits applied, want 3: %+v", len(res.Edits), res.Edits)
		}
		links := 0
		for _, e := range res.Edits {
			if e.Action == realm.EditAdd && e.Predicate == realm.Contextualizes && (e.To == ids["k"] || e.From == ids["k"] && e.To == ids["m"]) {
				links++
			}
		}
		if links != 2 {
			t.Errorf("learned links: %d of the two expected: %+v", links, res.Edits)
		}
		for _, e := range res.Edits {
			if e.Source != realm.EditSourceFeedback || e.TraceID != traceID {
				t.Errorf("edit logged as %+v", e)
			}
		}
		reverted, err := r.Revert(ctx, space, res.ReconsolidationID)
		if err != nil || len(reverted) != 3 {
			t.Fatalf("revert: %d edits, %v", len(reverted), err)
		}
		for k, w := range weights(t, s, space, ids) {
			if math.Float64bits(w) != math.Float64bits(before[k]) {
				t.Errorf("edge %s: %v after revert, %v before", k, w, before[k])
			}
		}
	})
	t.Run("SelfAudit", func(t *testing.T) {
		// No feedback: word overlap finds k, η/2 and c = 0.6: s↔k 0.5 → 0.5 + 0.25·0.6·0.5 = 0.575.
		space, traceID, ids := traced(t, s)
		res, err := r.Reconsolidate(ctx, space, traceID, reconsolidation.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Confirmed {
			t.Error("a self-audit counted as confirmed")
		}
		if w := weights(t, s, space, ids)[ids["s"]+">"+ids["k"]+">correlates"]; math.Abs(w-0.575) > 1e-12 {
			t.Errorf("s→k: %v, want 0.575", w)
		}
		for _, e := range res.Edits {
			if e.Source != realm.EditSourceAuto {
				t.Errorf("edit source %q, want auto", e.Source)
			}
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		space, _, _ := traced(t, s)
		_, err := r.Reconsolidate(ctx, space, "no-such-trace", reconsolidation.Request{})
		if realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("got %v, want not_found", err)
		}
	})
	t.Run("ErrNotRecalled", func(t *testing.T) {
		space, traceID, _ := traced(t, s)
		_, err := r.Reconsolidate(ctx, space, traceID, reconsolidation.Request{Feedback: &realm.Feedback{UsefulNodeIDs: []string{"elsewhere"}}})
		if realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
	})
	t.Run("OtherSpace", func(t *testing.T) {
		space, traceID, ids := traced(t, s)
		other, _, _ := traced(t, s)
		if _, err := r.Reconsolidate(ctx, other, traceID, reconsolidation.Request{}); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("another space's trace: %v, want not_found", err)
		}
		if w := weights(t, s, space, ids)[ids["s"]+">"+ids["k"]+">correlates"]; w != 0.5 {
			t.Errorf("edge moved: %v", w)
		}
	})
}
