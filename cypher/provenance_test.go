package cypher

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/schema"
)

// TestProvenanceMigration: the memory_provenance migration gives a memory written before
// integration_write linked all its sources a DERIVED_FROM edge to each observation among
// them, in its own space only, and adds nothing when run again.
func TestProvenanceMigration(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space, other := fullTextSpace(t, s), fullTextSpace(t, s)
	day := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	for _, sp := range []string{space, other} {
		obs := []realm.Observation{{ID: "o1", Speaker: "Ann", Content: "did you go?", ObservedAt: day}, {ID: "o2", Speaker: "Bo", Content: "yes", ObservedAt: day.Add(time.Minute)}}
		if _, err := s.SaveObservations(ctx, sp, "test:bow", 384, obs, lease); err != nil {
			t.Fatal(err)
		}
	}
	// As integration_write wrote a reply's exchange before: sources [o1, o2], an edge to o2 only.
	old := newQuery("test_old_provenance", `
CREATE (m:Memory {id: $id, space: $space, type: 'event', name: 'went', sources: ['o1', 'o2']})
WITH m
MATCH (o:Observation {space: $space, id: 'o2'})
CREATE (m)-[:DERIVED_FROM]->(o)`)
	id := space + "-exchange"
	if _, err := s.write(ctx, old, map[string]any{"space": space, "id": id}); err != nil {
		t.Fatal(err)
	}
	derived := newQuery("test_derived_from", `
MATCH (m:Memory {id: $id})-[:DERIVED_FROM]->(o:Observation)
RETURN o.space + '/' + o.id AS o ORDER BY o`)
	from := func() string {
		recs, err := s.read(ctx, derived, map[string]any{"id": id})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, str(r, "o"))
		}
		return fmt.Sprint(out)
	}
	migrations, err := schema.Migrations(384, s.filtered)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(migrations, func(m schema.Migration) bool { return m.Name == "memory_provenance" })
	if i < 0 {
		t.Fatal("no memory_provenance migration")
	}
	want := fmt.Sprint([]string{space + "/o1", space + "/o2"})
	for run := range 2 {
		if err := s.runSchemaStatement(ctx, migrations[i].Statement); err != nil {
			t.Fatal(err)
		}
		if got := from(); got != want {
			t.Errorf("run %d: derived from %s, want %s", run+1, got, want)
		}
	}
}
