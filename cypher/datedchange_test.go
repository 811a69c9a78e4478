package cypher

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestDatedChangeMigration: migration 0043 writes the supersedes edge of a client's
// correction sent with valid_from before such an edge said so ("corrected by …", the
// memory it corrects ended at valid_from, not when it was made) as a dated correction
// writes it now ("changed by … as of …"), which marks no correction: recall keeps that
// memory for the past. The edge of one sent without valid_from (its memory ended in the
// second the correction names), and that of a correction read in a message ("corrected
// Dana's …"), stay as they were; run again, it changes nothing. An import of a file of such
// a version writes them as the migration does (TestImportDatedChange).
func TestDatedChangeMigration(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := fullTextSpace(t, s)
	var rows []any
	for _, tt := range datedChanges {
		rows = append(rows, map[string]any{"name": tt.name, "made": tt.made, "edge": tt.edge, "until": tt.until})
	}
	old := newQuery("test_corrections_before_dated_changes", `
UNWIND $rows AS row
CREATE (m:Memory:Fact {id: $space + '-new-' + row.name, space: $space, type: 'fact', name: row.name, content: 'Ana works with Marina.', description: row.made, created_at: $made})
CREATE (o:Memory:Fact {id: $space + '-old-' + row.name, space: $space, type: 'fact', name: row.name, content: 'Ana works with Marta.', created_at: $made, valid_until: row.until})
CREATE (m)-[:SUPERSEDES {id: $space + '-edge-' + row.name, description: row.edge, weight: 0.9, confidence: 0.9}]->(o)`)
	if _, err := s.write(ctx, old, map[string]any{"space": space, "rows": rows, "made": correctionMade}); err != nil {
		t.Fatal(err)
	}
	migration := mustMigration(t, s, "supersedes_dated_change")
	for run := range 2 {
		if err := s.runSchemaStatement(ctx, migration); err != nil {
			t.Fatal(err)
		}
		checkDatedChanges(t, s, space, fmt.Sprintf("run %d", run+1))
	}
	if realm.IsCorrection(datedChanges[0].want) || !realm.IsCorrection(datedChanges[2].want) {
		t.Errorf("the dated edge marks a correction, or the undated one does not")
	}
}

// TestImportDatedChange: an import of an export holding the edges of TestDatedChangeMigration,
// as a version before dated corrections said "changed by … as of …" wrote them, writes
// them as the migration does.
func TestImportDatedChange(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	imp, err := s.BeginImport(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	defer imp.Abandon(ctx)
	var mems []ImportMemory
	var edges []ImportEdge
	for _, tt := range datedChanges {
		props := func(id, content string) map[string]any {
			return map[string]any{"id": space + id + tt.name, "type": "fact", "name": tt.name, "content": content, "created_at": correctionMade, "updated_at": correctionMade, "learned_at": correctionMade}
		}
		newer, older := props("-new-", "Ana works with Marina."), props("-old-", "Ana works with Marta.")
		newer["description"], older["valid_until"] = tt.made, tt.until
		mems = append(mems, ImportMemory{Type: realm.Fact, Props: newer}, ImportMemory{Type: realm.Fact, Props: older})
		edges = append(edges, ImportEdge{From: space + "-new-" + tt.name, To: space + "-old-" + tt.name, Predicate: realm.Supersedes,
			Props: map[string]any{"id": space + "-edge-" + tt.name, "description": tt.edge, "weight": 0.9, "confidence": 0.9}})
	}
	if err := imp.WriteMemories(ctx, mems); err != nil {
		t.Fatal(err)
	}
	if err := imp.WriteEdges(ctx, edges); err != nil {
		t.Fatal(err)
	}
	if err := imp.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	checkDatedChanges(t, s, space, "import")
}

// correctionMade is when the corrections of datedChanges were made.
var correctionMade = time.Date(2026, 12, 6, 8, 56, 29, 0, time.UTC)

// datedChanges: corrections as a version before dated ones said "changed by … as of …"
// stored them: the description of the memory made (made) and of its supersedes edge, the
// end of the memory corrected, and the edge's description wanted.
var datedChanges = []struct {
	name, made, edge string
	until            time.Time
	want             string
}{
	{"dated", "corrected by the client on 2026-12-06T08:56:29Z", "corrected by the client: Ana works with Marta.", time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC),
		"changed by the client as of 2026-06-01T10:00:00Z: Ana works with Marta."},
	{"dated-by-key", "corrected by ops on call on 2026-12-06T08:56:29Z", "corrected by ops on call: Ana works with Marta.", time.Date(2026, 11, 30, 22, 0, 0, 0, time.UTC),
		"changed by ops on call as of 2026-11-30T22:00:00Z: Ana works with Marta."},
	{"undated", "corrected by ops on 2026-12-06T08:56:29Z", "corrected by ops: Ana works with Marta.", correctionMade.Add(412 * time.Millisecond),
		"corrected by ops: Ana works with Marta."},
	{"said", "Said by Dana on 3 March 2023 in session s2.", "corrected Dana's smith study sample size: 412, not 214", time.Date(2023, 3, 3, 10, 0, 0, 0, time.UTC),
		"corrected Dana's smith study sample size: 412, not 214"},
	{"unreadable", "corrected by the client on a Monday", "corrected by the client: Ana works with Marta.", correctionMade,
		"corrected by the client: Ana works with Marta."},
}

// checkDatedChanges checks the descriptions of datedChanges' edges in space.
func checkDatedChanges(t *testing.T, s *Store, space, when string) {
	t.Helper()
	var ids []string
	for _, tt := range datedChanges {
		ids = append(ids, space+"-old-"+tt.name)
	}
	got, err := s.Successors(context.Background(), space, ids, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(datedChanges) {
		t.Fatalf("%s: %d successors, want %d", when, len(got), len(datedChanges))
	}
	for _, sc := range got {
		for _, tt := range datedChanges {
			if sc.Of == space+"-old-"+tt.name && sc.Description != tt.want {
				t.Errorf("%s: %s edge %q, want %q", when, tt.name, sc.Description, tt.want)
			}
		}
	}
}
