package retrieval_test

import (
	"context"
	"math"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// TestOursSeedShare: the ours scorer takes a seed's relevance as (1 − seed_share)·sim(v, q)
// + seed_share·its seed score, so a seed the full-text search matched rises above one
// only the vector found; a node reached by expansion keeps its similarity × path
// strength^½ whatever seed_share says. The hybrid plan searches "Paris" among the events:
// seed scores (0.6·sim + 0.4·keyword) move 0.48, trip 0.36 + 0.4 = 0.76; hq, a fact, is
// reached from move over CONTEXTUALIZES 0.6: 0.6·√0.6.
func TestOursSeedShare(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	plan := realm.Plan{Query: question, Keywords: []string{"Paris"}, Types: []realm.NodeType{realm.Event}, Mode: realm.HybridMatch}
	reached := 0.6 * math.Sqrt(0.6)
	tests := []struct {
		settings      string
		first         string
		move, trp, hq float64
	}{
		{"seed_share=0", "move", 0.8, 0.6, reached},                       // similarity alone, as before the setting
		{"", "move", 0.75*0.8 + 0.25*0.48, 0.75*0.6 + 0.25*0.76, reached}, // the default, 0.25
		{"seed_share=0.5", "trip", 0.5*0.8 + 0.5*0.48, 0.5*0.6 + 0.5*0.76, reached},
	}
	for _, tt := range tests {
		o := retrieval.DefaultOptions()
		if err := o.SetScore(tt.settings); err != nil {
			t.Fatal(err)
		}
		r := newRetriever(s, scripted{plans: []realm.Plan{plan}, atom: realm.Atom{ConflictInhibit: true}, reasoning: question}, o)
		res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: question, MaxDepth: depth(1)})
		if err != nil {
			t.Fatal(err)
		}
		got := scores(space, res)
		if !near(got["move"], tt.move) || !near(got["trip"], tt.trp) || !near(got["hq"], tt.hq) {
			t.Errorf("%s: move %.4f trip %.4f hq %.4f, want %.4f %.4f %.4f", tt.settings, got["move"], got["trip"], got["hq"], tt.move, tt.trp, tt.hq)
		}
		if first := res.Nodes[0].Node.ID; first != id(space, tt.first) {
			t.Errorf("%s: %s first, want %s", tt.settings, first, tt.first)
		}
	}
}
