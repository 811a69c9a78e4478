package cypher

import (
	"context"
	"testing"
)

// TestQueryHeldMigration: migration 0039 marks the edits written before the marker that
// still hold their query's text (the retention's sweep finds them by it), not those whose
// text was erased nor those that never had one; run again, it changes nothing.
func TestQueryHeldMigration(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := fullTextSpace(t, s)
	old := newQuery("test_edits_before_query_held", `
CREATE (:Edit {id: $space + '-held', space: $space, action: 'add', label: 'key_evidence', query: 'where does Ana live?'})
CREATE (:Edit {id: $space + '-erased', space: $space, action: 'add', label: 'key_evidence', query: '', query_erased: true})
CREATE (:Edit {id: $space + '-none', space: $space, action: 'strengthen'})`)
	if _, err := s.write(ctx, old, map[string]any{"space": space}); err != nil {
		t.Fatal(err)
	}
	migration := mustMigration(t, s, "edit_query_held")
	marked := newQuery("test_edits_query_held", `
MATCH (x:Edit) WHERE x.space = $space AND x.query_held = true
RETURN x.id AS id ORDER BY id`)
	for run := range 2 {
		if err := s.runSchemaStatement(ctx, migration); err != nil {
			t.Fatal(err)
		}
		recs, err := s.read(ctx, marked, map[string]any{"space": space})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 1 || str(recs[0], "id") != space+"-held" {
			t.Errorf("run %d: %d edits marked, want the one holding its query's text", run+1, len(recs))
		}
	}
}
