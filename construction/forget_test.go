package construction_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestForgetLeavesOthersPending: forgetting a message marks each message that stays and
// was a source of a memory deleted with it pending in the same transaction, so that a
// process that died before integrating it again (here: the deletion alone, as a crash
// after it leaves it) leaves it to the resumption, which brings back what it said, from
// it alone.
func TestForgetLeavesOthersPending(t *testing.T) {
	ctx := context.Background()
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	p := construction.New(store, offline.New(offline.Options{}), bowEmbedder{}, construction.Options{Owner: "forget-" + space}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	t0 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	said := func(id, content string, at time.Time) realm.Observation {
		return realm.Observation{ID: id, SessionID: "s1", Speaker: "Ana", Content: content, ObservedAt: at}
	}
	mustIngest(t, p, space, said("p1", "I am allergic to penicillin.", t0))
	mustIngest(t, p, space, said("p2", "Reminder: I am allergic to penicillin.", t0.Add(5*time.Minute)))
	allergy := func(want []string) bool {
		mems, _, err := store.ListMemories(ctx, space, cypher.MemoryFilter{}, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(mems, func(m realm.Node) bool {
			return m.Type != realm.Entity && m.Type != realm.Episode && strings.Contains(m.Content, "penicillin") && slices.Equal(m.Sources, want)
		})
	}
	if !allergy([]string{"p1", "p2"}) {
		t.Fatal("want the allergy merged from p1 and p2")
	}

	deleted, err := store.DeleteObservation(ctx, space, "p2", cypher.Lease{})
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted.Reintegrate) != 1 || deleted.Reintegrate[0].ID != "p1" {
		t.Errorf("to integrate again: %+v, want p1", deleted.Reintegrate)
	}
	if o, _, err := store.GetObservation(ctx, space, "p1"); err != nil || o.Status != realm.ObservationPending {
		t.Fatalf("p1 after the deletion: %+v %v, want pending", o, err)
	}
	if allergy([]string{"p1"}) {
		t.Fatal("the allergy is back before p1 is integrated again")
	}
	if n, err := p.ResumePending(ctx); err != nil || n != 1 {
		t.Fatalf("resumed %d %v, want p1", n, err)
	}
	if !allergy([]string{"p1"}) {
		t.Error("the allergy is not back from p1 alone")
	}
}
