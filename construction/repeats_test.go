package construction_test

import (
	"context"
	"fmt"
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

// reading is a thermostat's reading of the living room, said at hour h of one day.
func reading(id string, h int) realm.Observation {
	return realm.Observation{ID: id, SessionID: "d1", Speaker: "thermostat", Role: "tool",
		Content: "Thermostat living room 21.5C", ObservedAt: time.Date(2026, 11, 30, h, 0, 0, 0, time.UTC)}
}

// TestRepeatsAreSources: a message that says again what a memory holds (skipped) is one
// of its sources by provenance, one a call and in a run alike, received in any order: the
// memory is among those derived from it, learned at the earliest of their times, last
// said at the latest, said in each of their times, and forgetting the message that added it keeps what the others
// say.
func TestRepeatsAreSources(t *testing.T) {
	ctx := context.Background()
	store := cyphertest.MustOpen(t)
	for _, batch := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d a call", batch), func(t *testing.T) {
			space := cyphertest.NewSpace(t)
			p := construction.New(store, offline.New(offline.Options{}), bowEmbedder{}, construction.Options{Owner: "repeats-" + space}, zerolog.Nop())
			t.Cleanup(func() { p.Close(context.Background()) })
			// Received out of order, as concurrent batches arrive: r1 adds the fact.
			results := ingestInBatches(t, p, space, []realm.Observation{reading("r1", 1), reading("r2", 2), reading("r0", 0)}, batch)
			if len(results[0].Added) == 0 || len(results[1].Skipped) == 0 || len(results[2].Skipped) == 0 {
				t.Fatalf("results %+v, want r1 adding, r2 and r0 skipped", results)
			}
			fact := thermostatFact(t, store, space)
			for _, id := range []string{"r0", "r1", "r2"} {
				_, derived, err := store.GetObservation(ctx, space, id)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.ContainsFunc(derived, func(m cypher.ObservationMemory) bool { return m.ID == fact.ID }) {
					t.Errorf("%s derives %+v, want the fact %s", id, derived, fact.ID)
				}
			}
			if want := reading("r0", 0).ObservedAt; fact.LearnedAt == nil || !fact.LearnedAt.Equal(want) {
				t.Errorf("learned at %v, want %v (r0's)", fact.LearnedAt, want)
			}
			if want := reading("r2", 2).ObservedAt; fact.LastSaidAt == nil || !fact.LastSaidAt.Equal(want) {
				t.Errorf("last said at %v, want %v (r2's)", fact.LastSaidAt, want)
			}
			since, until := reading("", 2).ObservedAt, reading("", 3).ObservedAt
			said, _, err := store.SaidBy(ctx, space, &realm.RecallFilters{SaidSince: &since, SaidUntil: &until}, 10)
			if err != nil {
				t.Fatal(err)
			}
			if !said[fact.ID] {
				t.Errorf("said from 02:00 to 03:00: %v, want the fact (r2)", said)
			}

			if _, err := p.Forget(ctx, space, "r1"); err != nil {
				t.Fatal(err)
			}
			if fact := thermostatFact(t, store, space); fact.LearnedAt == nil || !fact.LearnedAt.Equal(reading("r0", 0).ObservedAt) {
				t.Errorf("after forgetting r1: learned at %v, want r0's time", fact.LearnedAt)
			}
		})
	}
}

// thermostatFact is the space's one fact or event saying the reading; it fails the test
// when there is none or more.
func thermostatFact(t *testing.T, store *cypher.Store, space string) realm.Node {
	t.Helper()
	nodes, _, err := store.ListMemories(context.Background(), space, cypher.MemoryFilter{}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	nodes = slices.DeleteFunc(nodes, func(n realm.Node) bool {
		return n.Type == realm.Entity || n.Type == realm.Episode || !strings.Contains(n.Content, "living room 21.5C")
	})
	if len(nodes) != 1 {
		t.Fatalf("facts saying the reading: %+v, want one", nodes)
	}
	return nodes[0]
}
