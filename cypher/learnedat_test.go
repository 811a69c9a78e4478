package cypher

import (
	"context"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestLearnedAtKeepsEarliest: a memory is learned at the earliest time of the
// observations it derives from: added, at its observation's (or the earlier one among its
// sources); merged into from an earlier observation, at that one's; from a later one,
// unchanged.
func TestLearnedAtKeepsEarliest(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	day := func(d int) time.Time { return time.Date(2026, 1, d, 10, 0, 0, 0, time.UTC) }
	obs := []realm.Observation{
		{ID: "o1", Speaker: "Ann", Content: "my phone number is 555-0101", ObservedAt: day(10)},
		{ID: "o2", Speaker: "Ann", Content: "the number I gave earlier", ObservedAt: day(5)},
		{ID: "o3", Speaker: "Ann", Content: "still 555-0101", ObservedAt: day(20)},
		{ID: "o4", Speaker: "Bo", Content: "noted, 555-0101", ObservedAt: day(21)},
	}
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := s.SaveObservations(ctx, space, "test", 8, obs, lease); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	node := func(id string, sources ...string) realm.Node {
		v := make([]float32, 8)
		v[len(id)%8] = 1
		return realm.Node{ID: id, Type: realm.Fact, Name: id, Content: "Ann's phone number is 555-0101", Sources: sources, Embedding: v, CreatedAt: now, UpdatedAt: now}
	}
	phone, exchange := space+"-phone", space+"-exchange"
	apply := func(obs string, in Integration) {
		t.Helper()
		if applied, err := s.ApplyIntegration(ctx, space, obs, NeighbourQuery{}, nil, in); err != nil || !applied.Applied {
			t.Fatalf("apply %s: %+v %v", obs, applied, err)
		}
	}
	learned := func(id string) time.Time {
		t.Helper()
		n, _, err := s.GetMemory(ctx, space, id)
		if err != nil || n.LearnedAt == nil {
			t.Fatalf("memory %s: learned_at %v, %v", id, n.LearnedAt, err)
		}
		return n.LearnedAt.UTC()
	}
	merge := Integration{Merges: []Merge{{ID: phone, Content: "Ann's phone number is 555-0101", Keywords: []string{"phone"}}}}

	apply("o1", Integration{Adds: []realm.Node{node(phone)}})
	if got := learned(phone); !got.Equal(day(10)) {
		t.Errorf("added from o1: learned %v, want %v", got, day(10))
	}
	apply("o2", merge)
	if got := learned(phone); !got.Equal(day(5)) {
		t.Errorf("merged from the earlier o2: learned %v, want %v", got, day(5))
	}
	apply("o3", merge)
	if got := learned(phone); !got.Equal(day(5)) {
		t.Errorf("merged from the later o3: learned %v, want it kept at %v", got, day(5))
	}
	apply("o4", Integration{Adds: []realm.Node{node(exchange, "o4", "o3")}}) // a reply's exchange derives from the turn it answers too
	if got := learned(exchange); !got.Equal(day(20)) {
		t.Errorf("exchange of o3 and o4: learned %v, want %v", got, day(20))
	}
}

// TestLearnedAtMigration: migration 0036 gives the memories written before learned_at
// was kept the earliest time of their observations, a client's correction (which derives
// from the observations of the memory it corrects) when it was made, and a memory with no
// timed source none; run again, it changes nothing.
func TestLearnedAtMigration(t *testing.T) {
	s, space, obs := twoSaid(t)
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2026, 1, d, 10, 0, 0, 0, time.UTC) }
	corrected := day(15)
	old := newQuery("test_memories_before_learned_at", `
CREATE (a:Memory {id: $space + '-two', space: $space, type: 'fact', name: 'two', description: 'said twice', created_at: datetime()})
CREATE (b:Memory {id: $space + '-none', space: $space, type: 'fact', name: 'none', created_at: datetime()})
CREATE (c:Memory {id: $space + '-fix', space: $space, type: 'fact', name: 'fix', description: 'corrected by the client on 2026-01-15T10:00:00Z', created_at: $corrected})
WITH a, c
MATCH (o:Observation {space: $space})
CREATE (a)-[:DERIVED_FROM]->(o), (c)-[:DERIVED_FROM]->(o)`)
	if _, err := s.write(ctx, old, map[string]any{"space": space, "corrected": corrected}); err != nil {
		t.Fatal(err)
	}
	runTwice(t, s, space, "memory_learned_at", "learned", func(n realm.Node) *time.Time { return n.LearnedAt },
		map[string]*time.Time{"-two": &obs[1].ObservedAt, "-none": nil, "-fix": &corrected})
	later, err := s.LearnedAfter(ctx, space, day(4))
	if err != nil || later != 1 {
		t.Errorf("learned after %v: %d, %v; want 1 (the correction)", day(4), later, err)
	}
}

// TestLastSaidAtMigration: migration 0044 gives the memories written before last_said_at
// was kept the latest time of their observations (the memory last said at day 10, not
// day 3), a client's correction and a memory with no timed source none, and one that has
// it keeps it; run again, it changes nothing.
func TestLastSaidAtMigration(t *testing.T) {
	s, space, obs := twoSaid(t)
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2026, 1, d, 10, 0, 0, 0, time.UTC) }
	kept := day(20)
	old := newQuery("test_memories_before_last_said_at", `
CREATE (a:Memory {id: $space + '-two', space: $space, type: 'event', name: 'two', description: 'said twice', created_at: datetime()})
CREATE (b:Memory {id: $space + '-none', space: $space, type: 'fact', name: 'none', created_at: datetime()})
CREATE (c:Memory {id: $space + '-fix', space: $space, type: 'fact', name: 'fix', description: 'corrected by ops on 2026-01-15T10:00:00Z', created_at: datetime()})
CREATE (d:Memory {id: $space + '-kept', space: $space, type: 'fact', name: 'kept', created_at: datetime(), last_said_at: $kept})
WITH a, c, d
MATCH (o:Observation {space: $space})
CREATE (a)-[:DERIVED_FROM]->(o), (c)-[:DERIVED_FROM]->(o), (d)-[:DERIVED_FROM]->(o)`)
	if _, err := s.write(ctx, old, map[string]any{"space": space, "kept": kept}); err != nil {
		t.Fatal(err)
	}
	runTwice(t, s, space, "memory_last_said_at", "last said", func(n realm.Node) *time.Time { return n.LastSaidAt },
		map[string]*time.Time{"-two": &obs[0].ObservedAt, "-none": nil, "-fix": nil, "-kept": &kept})
}

// twoSaid is a store with the schema applied and a space holding two messages of Ann's,
// o1 said on 10 January and o2 on the 3rd, for the migrations' tests.
func twoSaid(t *testing.T) (*Store, string, []realm.Observation) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := fullTextSpace(t, s)
	day := func(d int) time.Time { return time.Date(2026, 1, d, 10, 0, 0, 0, time.UTC) }
	obs := []realm.Observation{{ID: "o1", Speaker: "Ann", Content: "a", ObservedAt: day(10)}, {ID: "o2", Speaker: "Ann", Content: "b", ObservedAt: day(3)}}
	if _, err := s.SaveObservations(ctx, space, "test", 8, obs, Lease{Owner: "o", Until: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	return s, space, obs
}

// runTwice runs the migration name twice and checks, after each run, the time at(n) of
// each memory of space (its id the space's followed by a suffix) against want (nil: none).
func runTwice(t *testing.T, s *Store, space, name, what string, at func(realm.Node) *time.Time, want map[string]*time.Time) {
	ctx := context.Background()
	migration := mustMigration(t, s, name)
	for run := range 2 {
		if err := s.runSchemaStatement(ctx, migration); err != nil {
			t.Fatal(err)
		}
		for suffix, w := range want {
			n, _, err := s.GetMemory(ctx, space, space+suffix)
			if err != nil {
				t.Fatal(err)
			}
			if got := at(n); (got == nil) != (w == nil) || w != nil && !got.Equal(*w) {
				t.Errorf("run %d: memory %s %s %v, want %v", run+1, suffix, what, got, w)
			}
		}
	}
}
