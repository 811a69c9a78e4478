package construction_test

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/transfer"
)

// TestSupersedesEndsValidity: with the offline agent, a move is added beside the old
// fact with a supersedes edge to it; the old fact keeps its content and its validity ends
// when the new state began (its time), learned now; export and import carry both.
func TestSupersedesEndsValidity(t *testing.T) {
	store := cyphertest.MustOpen(t)
	p := construction.New(store, offline.New(offline.Options{}), bowEmbedder{}, construction.Options{Owner: "test-" + cyphertest.NewSpace(t)}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	space := cyphertest.NewSpace(t)
	jan := time.Date(2023, 1, 10, 10, 0, 0, 0, time.UTC)
	mar := time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC) // a Monday
	before := time.Now().UTC()
	mustIngest(t, p, space,
		realm.Observation{ID: "o1", SessionID: "s1", Speaker: "Nora", Content: "I live in Lisbon now, in a small flat near the river.", ObservedAt: jan},
		realm.Observation{ID: "o2", SessionID: "s2", Speaker: "Nora", Content: "Big news: we moved from Lisbon to Berlin last week.", ObservedAt: mar},
	)
	nodes, edges, err := store.Graph(context.Background(), space, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]realm.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	var old realm.Node
	for _, e := range edges {
		if e.Predicate == realm.Supersedes && byID[e.From].Sources[len(byID[e.From].Sources)-1] == "o2" && byID[e.To].Content == "Nora lives in Lisbon now, in a small flat near the river." {
			old = byID[e.To]
		}
	}
	if old.ID == "" {
		t.Fatalf("no supersedes edge from the move to the Lisbon fact: %+v", edges)
	}
	lastWeek := time.Date(2023, 3, 13, 0, 0, 0, 0, time.UTC)
	if old.ValidUntil == nil || !old.ValidUntil.Equal(lastWeek) {
		t.Errorf("valid_until = %v, want %v (the start of the week the move happened)", old.ValidUntil, lastWeek)
	}
	if old.SupersededAt == nil || old.SupersededAt.Before(before) {
		t.Errorf("superseded_at = %v, want the time of ingestion (after %v)", old.SupersededAt, before)
	}
	for _, n := range nodes {
		if n.ValidUntil != nil && n.ID != old.ID && n.Sources[0] != "o1" {
			t.Errorf("node %q from %v ended too", n.Content, n.Sources)
		}
	}

	var file bytes.Buffer
	if _, err := transfer.Export(context.Background(), store, space, &file, nil); err != nil {
		t.Fatal(err)
	}
	copySpace := cyphertest.NewSpace(t)
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(file.Bytes())), nil }
	if _, err := transfer.Import(context.Background(), store, copySpace, open, transfer.Options{Embedder: bowEmbedder{}.ID(), Dims: cyphertest.Dims}); err != nil {
		t.Fatal(err)
	}
	copied, _, err := store.Graph(context.Background(), copySpace, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range copied {
		if n.Content == old.Content && n.ValidUntil != nil && n.ValidUntil.Equal(lastWeek) && n.SupersededAt != nil && n.SupersededAt.Equal(*old.SupersededAt) {
			found = true
		}
	}
	if !found {
		t.Errorf("the imported space lost the Lisbon fact's validity")
	}
}
