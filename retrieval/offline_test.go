package retrieval_test

import (
	"context"
	"strings"
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

// TestLongUnspacedQuery: a recall of a long Chinese question (1300 characters, 3900
// bytes: within the query's limit), on a space whose keyword index this process does not
// hold yet, seeds from the full-text index within Lucene's clause limit and finds the
// memory holding its characters.
func TestLongUnspacedQuery(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	wife := realm.Node{ID: id(space, "wife"), Type: realm.Fact, Name: "王芳", Content: "李伟的妻子王芳住在上海。", Embedding: axes(1, 1)}
	other := realm.Node{ID: id(space, "other"), Type: realm.Fact, Name: "tea", Content: "Ann likes green tea", Embedding: axes(2, 1)}
	if err := s.PutMemories(context.Background(), space, []realm.Node{wife, other}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.RemoveFixture(context.Background(), space) })
	query := strings.Repeat("李伟的妻子叫什么名字她住在哪里", 100)[:3900]
	r := newRetriever(s, offline.New(offline.Options{}), retrieval.DefaultOptions())
	res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Nodes) == 0 || res.Nodes[0].Node.ID != wife.ID {
		t.Errorf("nodes %v, want %s first", scores(space, res), wife.ID)
	}
}

// TestOfflineRecallGroupedNumber: a question writing a number in groups ("0088 412 390")
// finds the memory that holds it written whole, first, and not one holding a longer number
// that begins with it.
func TestOfflineRecallGroupedNumber(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	miles := realm.Node{ID: id(space, "miles"), Type: realm.Fact, Name: "Miles&Go", Content: "Maria's TAP Miles&Go number is 0088412390.", Embedding: axes(1, 1)}
	mileage := realm.Node{ID: id(space, "mileage"), Type: realm.Fact, Name: "ANA Mileage Club", Content: "Kenji's ANA Mileage Club number is 4417-203-998, a member number.", Embedding: axes(2, 1)}
	longer := realm.Node{ID: id(space, "longer"), Type: realm.Fact, Name: "booking", Content: "Booking 00884123901 is pending.", Embedding: axes(3, 1)}
	if err := s.PutMemories(context.Background(), space, []realm.Node{miles, mileage, longer}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.RemoveFixture(context.Background(), space) })
	r := newRetriever(s, offline.New(offline.Options{}), retrieval.DefaultOptions())
	res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "Whose number is 0088 412 390?"})
	if err != nil {
		t.Fatal(err)
	}
	got := scores(space, res)
	if len(res.Nodes) == 0 || res.Nodes[0].Node.ID != miles.ID || got["longer"] >= got["miles"] {
		t.Errorf("nodes %v, want miles first, above longer", got)
	}
}
