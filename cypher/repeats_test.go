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

// repeatedReading stores a thermostat's reading "a", said at an hour after t0, which adds
// a fact, and its repeats, r00 … said at t0 plus step times their number, received odd
// ones first; the first three quarters are integrated in one run, more than it keeps, the
// others one at a time. It returns the fact before the repeats, the observations ("a"
// first) and the repeats' ids in the order they were said.
func repeatedReading(t *testing.T, s *cypher.Store, space string, t0 time.Time, repeats int, step time.Duration) (realm.Node, []realm.Observation, []string) {
	t.Helper()
	ctx := context.Background()
	obs := []realm.Observation{{ID: "a", Speaker: "thermostat", Content: "Thermostat living room 21.5C", ObservedAt: t0.Add(time.Hour)}}
	var said []string
	for i := range repeats {
		said = append(said, fmt.Sprintf("r%03d", i))
	}
	for _, odd := range []int{1, 0} {
		for i := odd; i < len(said); i += 2 {
			obs = append(obs, realm.Observation{ID: said[i], Speaker: "thermostat", Content: "Thermostat living room 21.5C", ObservedAt: t0.Add(time.Duration(i) * step)})
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
	split := 1 + 3*len(said)/4
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
	return before, obs, said
}

// derivers returns, sorted, the ids of the observations of obs that memory derives from.
func derivers(t *testing.T, s *cypher.Store, space, memory string, obs []realm.Observation) []string {
	t.Helper()
	var derive []string
	for _, o := range obs {
		_, derived, err := s.GetObservation(context.Background(), space, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(derived, func(m cypher.ObservationMemory) bool { return m.ID == memory }) {
			derive = append(derive, o.ID)
		}
	}
	slices.Sort(derive)
	return derive
}

// TestRepeatsKept: the observations that said again what a memory holds (repeats) derive
// it by provenance, in a run and one at a time, received in any order: it is learned at
// the earliest of their times, last said at the latest, keeps its sources and last update, and keeps the first
// repeat said and the last cypher.RepeatsKept-1.
func TestRepeatsKept(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	before, obs, said := repeatedReading(t, s, space, t0, 2*cypher.RepeatsKept, time.Minute)
	got, _, err := s.GetMemory(context.Background(), space, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.LearnedAt == nil || !got.LearnedAt.Equal(t0) {
		t.Errorf("learned at %v, want %v (r000's)", got.LearnedAt, t0)
	}
	if last := obs[0].ObservedAt.Add(3 * time.Minute); got.LastSaidAt == nil || !got.LastSaidAt.Equal(last) {
		t.Errorf("last said at %v, want %v (%s's)", got.LastSaidAt, last, said[len(said)-1])
	}
	if !slices.Equal(got.Sources, []string{"a"}) || !got.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("sources %v, updated %v; want [a], %v as before the repeats", got.Sources, got.UpdatedAt, before.UpdatedAt)
	}
	want := append([]string{"a", said[0]}, said[len(said)-cypher.RepeatsKept+1:]...)
	if slices.Sort(want); !slices.Equal(derivers(t, s, space, before.ID, obs), want) {
		t.Errorf("derived from %v, want %v", derivers(t, s, space, before.ID, obs), want)
	}
}

// TestRepeatsKeptEachDay: a reading sent every hour for five days keeps, besides its last
// cypher.RepeatsKept-1 repeats, the first said each day (UTC), so that it counts as said
// on each of those days (said filters), the days between its first and its last too.
func TestRepeatsKeptEachDay(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	fact, obs, said := repeatedReading(t, s, space, t0, 5*24, time.Hour)
	want := []string{"a", said[0], said[24], said[48], said[72], said[96]}
	want = append(want, said[len(said)-cypher.RepeatsKept+1:]...)
	slices.Sort(want)
	want = slices.Compact(want)
	if got := derivers(t, s, space, fact.ID, obs); !slices.Equal(got, want) {
		t.Errorf("derived from %v, want %v", got, want)
	}
	for day := range 5 {
		since := t0.AddDate(0, 0, day)
		until := since.Add(24*time.Hour - time.Second)
		ids, err := s.SaidAmong(ctx, space, &realm.RecallFilters{SaidSince: &since, SaidUntil: &until}, []string{fact.ID})
		if err != nil {
			t.Fatal(err)
		}
		if !ids[fact.ID] {
			t.Errorf("not said on %v", since.Format(time.DateOnly))
		}
	}
}

// TestForgetRepeats: forgetting the messages a memory derives from brings back, as any
// message that stays, those it let go of too many repeats: marked pending, they are
// integrated again, so that what they said stays remembered while one of them is stored.
func TestForgetRepeats(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	fact, obs, said := repeatedReading(t, s, space, t0, 2*cypher.RepeatsKept, time.Minute)
	kept := derivers(t, s, space, fact.ID, obs)
	deleted, err := s.DeleteObservation(ctx, space, "a", testLease(space))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(deleted.MemoryIDs, []string{fact.ID}) {
		t.Fatalf("deleted %v, want the fact", deleted.MemoryIDs)
	}
	var trimmed []string
	for _, id := range said {
		if !slices.Contains(kept, id) {
			trimmed = append(trimmed, id)
		}
	}
	slices.Sort(deleted.Trimmed)
	if !slices.Equal(deleted.Trimmed, trimmed) {
		t.Errorf("trimmed %v, want %v", deleted.Trimmed, trimmed)
	}
	for _, id := range said {
		o, _, err := s.GetObservation(ctx, space, id)
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != realm.ObservationPending {
			t.Errorf("%s: %s, want pending: what it said went with the fact", id, o.Status)
		}
	}
}

// TestForgetLastSaid: an entity that stays when the last message naming it is forgotten
// is last said when the latest of the others was, not at the forgotten message's time.
func TestForgetLastSaid(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t0 := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC)
	obs := []realm.Observation{
		{ID: "a", Speaker: "Sarah", Content: "The dishwasher finished.", ObservedAt: t0},
		{ID: "b", Speaker: "Sarah", Content: "The dishwasher finished again.", ObservedAt: t0.Add(10 * time.Hour)},
	}
	if _, err := s.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, obs, testLease(space)); err != nil {
		t.Fatal(err)
	}
	sarah := realm.Node{ID: space + ":sarah", Type: realm.Entity, Name: "Sarah", Content: "Sarah (person)", Embedding: unitVec(0, 1, 0.1)}
	mustApply(t, s, space, "a", cypher.Integration{Adds: []realm.Node{sarah}})
	mustApply(t, s, space, "b", cypher.Integration{Merges: []cypher.Merge{{ID: sarah.ID}}})
	lastSaid := func() *time.Time {
		got, _, err := s.GetMemory(ctx, space, sarah.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.LastSaidAt
	}
	if got := lastSaid(); got == nil || !got.Equal(obs[1].ObservedAt) {
		t.Fatalf("last said at %v, want %v (b's)", got, obs[1].ObservedAt)
	}
	if _, err := s.DeleteObservation(ctx, space, "b", testLease(space)); err != nil {
		t.Fatal(err)
	}
	if got := lastSaid(); got == nil || !got.Equal(t0) {
		t.Errorf("after forgetting b: last said at %v, want %v (a's)", got, t0)
	}
}
