package cypher

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// sayAgain stores reading, said at t0 and adding a fact (its id returned), and repeats
// of it, said a minute apart after it on one day, integrated in one run: the fact keeps
// the first and the last RepeatsKept-1 and lets the others go. Forgotten is the space's
// forget count (Integration.Forgotten).
func sayAgain(tb testing.TB, s *Store, space, reading string, t0 time.Time, repeats int, forgotten int64) string {
	tb.Helper()
	ctx := context.Background()
	obs := []realm.Observation{{ID: reading, Speaker: "thermostat", Content: "Thermostat " + reading, ObservedAt: t0}}
	for i := range repeats {
		obs = append(obs, realm.Observation{ID: fmt.Sprintf("%s-r%03d", reading, i), Speaker: "thermostat",
			Content: "Thermostat " + reading, ObservedAt: t0.Add(time.Duration(i+1) * time.Minute)})
	}
	if _, err := s.SaveObservations(ctx, space, "test", 384, obs, Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}); err != nil {
		tb.Fatal(err)
	}
	v := make([]float32, 384)
	v[len(reading)%384] = 1
	fact := realm.Node{ID: space + ":" + reading, Type: realm.Fact, Content: "Thermostat " + reading, Embedding: v}
	if applied, err := s.ApplyIntegration(ctx, space, reading, NeighbourQuery{}, nil, Integration{Adds: []realm.Node{fact}, Forgotten: forgotten}); err != nil || !applied.Applied {
		tb.Fatalf("%s: %+v %v", reading, applied, err)
	}
	q := RunQuery{Space: space, K: 3}
	read, err := s.RunNeighbourhoods(ctx, q)
	if err != nil {
		tb.Fatal(err)
	}
	var ins []ObservationIntegration
	for _, o := range obs[1:] {
		ins = append(ins, ObservationIntegration{ObservationID: o.ID, Integration: Integration{Skipped: 1, Repeats: []string{fact.ID}, Forgotten: forgotten}})
	}
	if applied, err := s.ApplyRun(ctx, q, read, ins); err != nil || !applied.Applied {
		tb.Fatalf("repeats of %s: %+v %v", reading, applied, err)
	}
	return fact.ID
}

var qTestRepeatOf = newQuery("test_repeat_of", `
MATCH (p:Observation {space: $space})
WHERE $memory IN coalesce(p.repeat_of, [])
RETURN p.id AS id, COUNT { (p)-[:REPEAT_OF]->(:Memory {id: $memory}) } AS edges
ORDER BY id`)

// letGo returns the observations of space whose repeat_of lists memory, and how many
// edges REPEAT_OF link them to it.
func letGo(t *testing.T, s *Store, space, memory string) (ids []string, edges int64) {
	t.Helper()
	recs, err := s.read(context.Background(), qTestRepeatOf, map[string]any{"space": space, "memory": memory})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		ids = append(ids, str(r, "id"))
		edges += num(r, "edges")
	}
	return ids, edges
}

// TestRepeatOfMigration: migration 0042 links the observations a memory let go of too
// many repeats, in a store written before it (their repeat_of lists the memory, no edge
// links them), to that memory, once however often it runs; forgetting the memory's
// message then brings them back as it brings back those let go since.
func TestRepeatOfMigration(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := fullTextSpace(t, s)
	fact := sayAgain(t, s, space, "a", time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC), 2*RepeatsKept, 0)
	want, edges := letGo(t, s, space, fact)
	if len(want) != RepeatsKept || edges != int64(len(want)) {
		t.Fatalf("let go %v, %d edges; want %d, one each", want, edges, RepeatsKept)
	}
	old := newQuery("test_repeat_of_before", `MATCH (:Observation {space: $space})-[r:REPEAT_OF]->() DELETE r`)
	if _, err := s.write(ctx, old, map[string]any{"space": space}); err != nil {
		t.Fatal(err)
	}
	migration := mustMigration(t, s, "observation_repeat_of")
	for run := range 2 {
		if err := s.runSchemaStatement(ctx, migration); err != nil {
			t.Fatal(err)
		}
		if got, edges := letGo(t, s, space, fact); !slices.Equal(got, want) || edges != int64(len(want)) {
			t.Errorf("run %d: let go %v, %d edges; want %v, one each", run+1, got, edges, want)
		}
	}
	deleted, err := s.DeleteObservation(ctx, space, "a", Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Sort(deleted.Trimmed); !slices.Equal(deleted.Trimmed, want) {
		t.Errorf("forgetting a: brought back %v, want %v", deleted.Trimmed, want)
	}
	if got, _ := letGo(t, s, space, fact); len(got) != 0 {
		t.Errorf("after the forget, %v still list the fact in their repeat_of", got)
	}
}

// TestRepeatOfDegree: the edges REPEAT_OF of the observations a memory let go leave its
// degree as the expansion reads it (its memory edges) as it was.
func TestRepeatOfDegree(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	fact := sayAgain(t, s, space, "a", time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC), 2*RepeatsKept, 0)
	if _, edges := letGo(t, s, space, fact); edges == 0 {
		t.Fatal("no repeat let go")
	}
	recs, err := s.read(ctx, qGraphSnapshotMemories, map[string]any{"space": space, "ids": []string{fact}, "lean": []string{}, "inline_sources": InlineSources})
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d rows, %v", len(recs), err)
	}
	if d := num(recs[0], "degree"); d != 0 {
		t.Errorf("degree %d, want 0: the fact has no memory edge", d)
	}
}
