package cypher

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestImportInterrupted: an import whose process dies between batches (no Finish, no
// Abandon) leaves its mark: while its lease runs, another import and an export are
// refused; once it has run out, ingest and recall are refused saying the import was
// interrupted, and the next import erases what it left and, finished, ends the refusal.
// (The imports of whole files are package transfer's tests.)
func TestImportInterrupted(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	dead, err := s.BeginImport(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	imported := map[string]any{"id": "o1", "content": "I moved to Lisbon.", "speaker": "Ana", "status": "pending",
		"seq": int64(1), "attempts": int64(0), "observed_at": time.Now().UTC()}
	if err := dead.WriteNodes(ctx, "observation", []map[string]any{imported}); err != nil {
		t.Fatal(err)
	}
	dead.stop() // the process dies here

	if _, err := s.BeginImport(ctx, space); realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "being imported") {
		t.Fatalf("import while another holds the space: %v", err)
	}
	if _, err := s.ExportSpaceProps(ctx, space); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("export of a space being imported: %v", err)
	}
	// Its lease runs out.
	if _, err := s.write(ctx, qImportRenew, map[string]any{"space": space, "import": dead.id, "until": time.Now().UTC().Add(-time.Second)}); err != nil {
		t.Fatal(err)
	}
	obs := []realm.Observation{{ID: "n1", Space: space, Speaker: "Ana", Content: "Ana adopted a cat.", ObservedAt: time.Now().UTC()}}
	_, err = s.SaveObservations(ctx, space, "test:e", 3, obs, Lease{})
	if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("ingest into an interrupted import's space: %v", err)
	}
	if err := s.CheckNotImporting(ctx, space); realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("recall of an interrupted import's space: %v", err)
	}

	next, err := s.BeginImport(ctx, space)
	if err != nil {
		t.Fatalf("import after an interrupted one: %v", err)
	}
	if _, err := s.Observation(ctx, space, "o1"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("what the interrupted import wrote is still there: %v", err)
	}
	if err := next.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckNotImporting(ctx, space); err != nil {
		t.Errorf("after the next import: %v", err)
	}
}
