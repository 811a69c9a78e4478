package retrieval_test

import (
	"context"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// A subgraph_beam whose seed has admitted subgraph_max_nodes is not walked further: its
// next hops would admit nothing. With a cap of one node per seed, the first hop of the
// three seeds' beams fills every seed's cap (each admits another seed, the best by edge
// score), so their second hop is not read: one expansion statement, where each hop read
// the graph before; the nodes gathered are the same.
func TestCappedBeamsNotWalked(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	r := newRetriever(s, scripted{plans: []realm.Plan{{Query: question, Mode: realm.QueryMatch}}, reasoning: question}, retrieval.DefaultOptions())
	logged, log := cypher.WithStatementLog(context.Background())
	res, err := r.Recall(logged, space, realm.RecallRequest{Query: question, MaxDepth: depth(2), Strategy: realm.StrategyBeam, SubgraphMaxNodes: 1})
	if err != nil {
		t.Fatal(err)
	}
	var reads []string
	for _, st := range log.Statements {
		if st.Name == "expand_neighbours" {
			reads = append(reads, st.Name)
		}
	}
	if len(reads) != 1 {
		t.Errorf("%d expansion statements, want 1 (the seeds' first hop)", len(reads))
	}
	tr, err := s.Trace(context.Background(), space, res.TraceID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"move": 0, "hq": 0, "trip": 0}
	if len(tr.FirstDepth) != len(want) {
		t.Errorf("gathered %v, want %v", tr.FirstDepth, want)
	}
	for name, d := range want {
		if got, ok := tr.FirstDepth[id(space, name)]; !ok || got != d {
			t.Errorf("%s: depth %d (gathered %v), want %d", name, got, ok, d)
		}
	}
}
