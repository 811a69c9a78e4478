package cypher_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRepeatsKept: the observations that said again what a memory holds (repeats) derive
// it by provenance, in a run and one at a time, received in any order: it is learned at
// the earliest of their times, keeps its sources and last update, and keeps the first
// repeat said and the last cypher.RepeatsKept-1.
func TestRepeatsKept(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	// "a" adds the memory; r00 … are said a minute apart, received odd ones first.
	obs := []realm.Observation{{ID: "a", Speaker: "thermostat", Content: "Thermostat living room 21.5C", ObservedAt: t0.Add(time.Hour)}}
	var said []string // the repeats, in the order they were said
	for i := range 2 * cypher.RepeatsKept {
		said = append(said, fmt.Sprintf("r%02d", i))
	}
	for _, odd := range []int{1, 0} {
		for i := odd; i < len(said); i += 2 {
			obs = append(obs, realm.Observation{ID: said[i], Speaker: "thermostat", Content: "Thermostat living room 21.5C", ObservedAt: t0.Add(time.Duration(i) * time.Minute)})
		}
	}
	if _, err := s.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, obs, testLease(space)); err != nil {
		t.Fatal(err)
	}
	fact := realm.Node{ID: space + ":fact", Type: realm.Fact, Content: "Thermostat living room 21.5C", Embedding: unitVec(0, 1, 0.1)}
	mustApply(t, s, space, "a", cypher.Integration{Adds: []realm.Node{fact}})
	before, _, err := s.GetMemory(ctx, space, fact.ID)
	if err != nil {
		t.Fatal(err)
	}

	// The first three quarters in one run, more than it keeps, the others one at a time.
	split := 1 + 3*cypher.RepeatsKept/2
	q := cypher.RunQuery{Space: space, K: 3}
	read, err := s.RunNeighbourhoods(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var ins []cypher.ObservationIntegration
	for _, o := range obs[1:split] {
		ins = append(ins, cypher.ObservationIntegration{ObservationID: o.ID, Integration: cypher.Integration{Skipped: 1, Repeats: []string{fact.ID}}})
	}
	if applied, err := s.ApplyRun(ctx, q, read, ins); err != nil || !applied.Applied {
		t.Fatalf("apply: %+v %v", applied, err)
	}
	for _, o := range obs[split:] {
		mustApply(t, s, space, o.ID, cypher.Integration{Skipped: 1, Repeats: []string{fact.ID}})
	}

	got, _, err := s.GetMemory(ctx, space, fact.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.LearnedAt == nil || !got.LearnedAt.Equal(t0) {
		t.Errorf("learned at %v, want %v (r00's)", got.LearnedAt, t0)
	}
	if !slices.Equal(got.Sources, []string{"a"}) || !got.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("sources %v, updated %v; want [a], %v as before the repeats", got.Sources, got.UpdatedAt, before.UpdatedAt)
	}
	want := append([]string{"a", said[0]}, said[len(said)-cypher.RepeatsKept+1:]...)
	var derive []string
	for _, o := range obs {
		_, derived, err := s.GetObservation(ctx, space, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(derived, func(m cypher.ObservationMemory) bool { return m.ID == fact.ID }) {
			derive = append(derive, o.ID)
		}
	}
	slices.Sort(derive)
	if slices.Sort(want); !slices.Equal(derive, want) {
		t.Errorf("derived from %v, want %v", derive, want)
	}
}
