package retrieval_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// A recall expanded from the space's snapshot (cypher.Store.Expander) returns what the
// same recall expanded by the statements returns: the same memories in the same order
// at the same depths with the same edges, scores within Neo4j's single-precision cosine,
// for both strategies, with and without temporal decay and predicates.
func TestRecallSameFromSnapshot(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	cfg := cyphertest.Config()
	cfg.GraphCacheMax = -1
	plain, err := cypher.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close(ctx)
	space := mustGraph(t, s)
	if err := s.PutScaleSpace(ctx, space, "test:table", cyphertest.Dims, 1, ""); err != nil {
		t.Fatal(err)
	}
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	if x, err := s.Expander(ctx, space, counts); err != nil || x == cypher.Expander(s) {
		t.Fatalf("the space is not expanded from a snapshot (%v)", err)
	}
	if x, err := plain.Expander(ctx, space, counts); err != nil || x != cypher.Expander(plain) {
		t.Fatalf("a store without a graph cache expands from a snapshot (%v)", err)
	}
	plans := []realm.Plan{{Query: question, Mode: realm.QueryMatch}}
	may10 := time.Date(2023, 5, 10, 0, 0, 0, 0, time.UTC)
	soft := &realm.TemporalDecay{Time: may10, DeltaT: 30 * 24 * time.Hour, Mode: realm.DecaySoft, MissingTime: realm.MissingTimeKeep}
	atoms := []realm.Atom{{ConflictInhibit: true}, {}, {Predicates: []realm.Predicate{realm.Triggers, realm.Contextualizes}}, {Decay: soft}}
	compared := 0
	for _, strategy := range []realm.Strategy{realm.StrategyBeam, realm.StrategyPath} {
		for i, atom := range atoms {
			ask := func(st *cypher.Store) realm.RecallResult {
				r := newRetriever(st, scripted{plans: plans, atom: atom, reasoning: question}, paperOptions())
				res, err := r.Recall(ctx, space, realm.RecallRequest{Query: question, MaxDepth: depth(3), Strategy: strategy})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			got, want := ask(s), ask(plain)
			if len(got.Nodes) != len(want.Nodes) || fmt.Sprint(got.Edges) != fmt.Sprint(want.Edges) {
				t.Fatalf("%s atom %d: snapshot %v, statements %v", strategy, i, got.Nodes, want.Nodes)
			}
			for j := range got.Nodes {
				g, w := got.Nodes[j], want.Nodes[j]
				if g.Node.ID != w.Node.ID || g.Depth != w.Depth || math.Abs(g.Score-w.Score) > 1e-6 {
					t.Fatalf("%s atom %d, rank %d: snapshot %s %.9f depth %d, statements %s %.9f depth %d",
						strategy, i, j, g.Node.ID, g.Score, g.Depth, w.Node.ID, w.Score, w.Depth)
				}
				if g.Depth > 0 {
					compared++
				}
			}
		}
	}
	t.Logf("%d memories admitted by expansion compared", compared)
	if compared == 0 {
		t.Fatal("no recall admitted a memory by expansion")
	}
}
