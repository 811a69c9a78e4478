package retrieval_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// focusSpace is a space of n observations whose entity Gina derives from all of them and a
// fact from the first, with what saves k more observations (their ids) and what returns
// the focus of a recall of the space.
func focusSpace(t *testing.T, n int) (s *cypher.Store, space string, all []string, observe func(k int) []string, focus func(query string) string) {
	t.Helper()
	s = cyphertest.MustOpen(t)
	ctx := context.Background()
	space = cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	lease := cypher.Lease{Owner: "t", Until: time.Now().Add(time.Minute)}
	next := 0
	observe = func(k int) []string {
		var obs []realm.Observation
		var ids []string
		for range k {
			obs = append(obs, realm.Observation{ID: fmt.Sprintf("o%d", next), Content: "turn", ObservedAt: time.Now()})
			ids = append(ids, obs[len(obs)-1].ID)
			next++
		}
		if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, obs, lease); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	all = observe(n)
	vecs, _ := wordEmbedder{}.Embed(ctx, []string{"gina loves the dance studio by the water"})
	if err := s.PutMemories(ctx, space, []realm.Node{
		{ID: space + ":gina", Type: realm.Entity, Name: "Gina", Sources: all},
		{ID: space + ":a", Type: realm.Fact, Content: "gina loves the dance studio by the water", Embedding: vecs[0], Sources: all[:1]},
	}, nil); err != nil {
		t.Fatal(err)
	}
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	focus = func(query string) string {
		t.Helper()
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := s.Trace(ctx, space, res.TraceID)
		if err != nil {
			t.Fatal(err)
		}
		return tr.Focus
	}
	return s, space, all, observe, focus
}

// A Retriever remembers a space's common names between recalls, and reads them again
// once the space has changed: a participant who became common since, or whose entity
// was deleted, is left out of, or kept in, the next recall's focus.
func TestFocusCache(t *testing.T) {
	ctx := context.Background()
	s, space, _, observe, focus := focusSpace(t, 30)
	const query = "What does Jon love about Gina's dance studio?"
	if got, want := focus(query), "What does Jon love about dance studio?"; got != want {
		t.Fatalf("focus %q, want %q", got, want)
	}
	// Jon becomes common: 30 new observations name him (a new observation moves the seq).
	more := observe(30)
	if err := s.PutMemories(ctx, space, []realm.Node{{ID: space + ":jon", Type: realm.Entity, Name: "Jon", Sources: more}}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := focus(query), "What does love about dance studio?"; got != want {
		t.Errorf("after Jon became common: focus %q, want %q", got, want)
	}
	// Gina's entity goes (the memory count moves): her name stays in the query.
	if err := s.DeleteMemory(ctx, space, space+":gina"); err != nil {
		t.Fatal(err)
	}
	if got, want := focus(query), "What does love about Gina's dance studio?"; got != want {
		t.Errorf("after Gina's entity was deleted: focus %q, want %q", got, want)
	}
}

// In a space of at least namesStaleFrom observations, a few new ones (at most 1% more)
// do not make a recall read the common names again: it takes the ones held, and once
// the space has 0.1% more observations than at their read they are read in the background,
// for the recalls after it. More new observations, or a memory gone, make the recall read
// them at once, as in a small space.
func TestFocusCacheLargeSpace(t *testing.T) {
	defer retrieval.SetNamesStaleFrom(1000)()
	ctx := context.Background()
	s, space, all, observe, focus := focusSpace(t, 2000)
	const query = "What does Jon and Mel love about Gina's dance studio?"
	if got, want := focus(query), "What does Jon and Mel love about dance studio?"; got != want {
		t.Fatalf("focus %q, want %q", got, want)
	}
	// One new observation (2000 → 2001) and Jon, named in all of them, becomes common:
	// the recalls keep the names held and read none (fewer than 0.1% more).
	all = append(all, observe(1)...)
	if err := s.PutMemories(ctx, space, []realm.Node{{ID: space + ":jon", Type: realm.Entity, Name: "Jon", Sources: all}}, nil); err != nil {
		t.Fatal(err)
	}
	held := "What does Jon and Mel love about dance studio?"
	for range 3 {
		if got := focus(query); got != held {
			t.Fatalf("one observation later: focus %q, want the names held, %q", got, held)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A second one (0.1% more): the recall still takes the names held, the ones read in
	// the background reach the recalls after it.
	all = append(all, observe(1)...)
	if got := focus(query); got != held {
		t.Errorf("two observations later: focus %q, want the names held, %q", got, held)
	}
	want := "What does and Mel love about dance studio?"
	for deadline := time.Now().Add(10 * time.Second); focus(query) != want; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the names read in the background never reached the recalls: focus %q, want %q", focus(query), want)
		}
	}
	// 26 more (more than 1% of 2002), and Mel becomes common: read at once.
	all = append(all, observe(26)...)
	if err := s.PutMemories(ctx, space, []realm.Node{{ID: space + ":mel", Type: realm.Entity, Name: "Mel", Sources: all}}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := focus(query), "What does and love about dance studio?"; got != want {
		t.Errorf("26 observations later: focus %q, want %q", got, want)
	}
	// Jon's entity goes (no new observation): read at once, his name stays in the query.
	if err := s.DeleteMemory(ctx, space, space+":jon"); err != nil {
		t.Fatal(err)
	}
	if got, want := focus(query), "What does Jon and love about dance studio?"; got != want {
		t.Errorf("after Jon's entity was deleted: focus %q, want %q", got, want)
	}
}
