package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestCommandsRefuseImportingSpace: `realm recall` and `realm ingest` into a space that
// an import holds are refused with a conflict saying an import is running, as over HTTP,
// and the ingest stores nothing.
func TestCommandsRefuseImportingSpace(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	imp, err := store.BeginImport(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { imp.Abandon(context.Background()) })
	msgs := filepath.Join(t.TempDir(), "messages.jsonl")
	if err := os.WriteFile(msgs, []byte(`{"id":"h1","speaker":"Ana","content":"Ana bakes bread.","timestamp":"2023-01-10T09:00:00Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := testEnv(nil)
	for _, args := range [][]string{{"recall", "--space", space, "what does Ana bake?"}, {"ingest", "--space", space, msgs}} {
		var out bytes.Buffer
		err := run(ctx, append([]string{"realm"}, args...), env, &out)
		if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "import") {
			t.Errorf("realm %s during an import: %v, want a conflict naming the import", args[0], err)
		}
	}
	if _, err := store.Observation(ctx, space, "h1"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("the refused ingest stored its message: %v", err)
	}
}
