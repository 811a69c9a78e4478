package retrieval_test

import (
	"context"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// The offline agent end to end on the hand-built graph: a why-question walks paths and
// finds carol, two hops from the best seed (gathered: by default its score is its own
// similarity to the question times the factors, 0 here, see score.go).
func TestOfflineRecall(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	r := newRetriever(s, offline.New(offline.Options{}), retrieval.DefaultOptions())
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
