package cypher

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestImportInterrupted: an import whose process dies between batches (no Finish, no
// Abandon) leaves its mark: while its lease runs, another import, an export, ingest and
// recall are refused, saying until when it holds the space; once it has run out, ingest and recall are refused saying the import was
// interrupted, and the next import erases what it left and, finished, ends the refusal.
// (The imports of whole files are package transfer's tests.)
func TestImportInterrupted(t *testing.T) {
	s, dead := beginImport(t)
	ctx, space := context.Background(), dead.Space()
	imported := map[string]any{"id": "o1", "content": "I moved to Lisbon.", "speaker": "Ana", "status": "pending",
		"seq": int64(1), "attempts": int64(0), "observed_at": time.Now().UTC()}
	if err := dead.WriteNodes(ctx, "observation", []map[string]any{imported}); err != nil {
		t.Fatal(err)
	}
	dead.stop() // the process dies here
	until := time.Now().UTC().Add(importLease).Truncate(time.Second)
	if _, err := s.write(ctx, qImportRenew, map[string]any{"space": space, "import": dead.id, "until": until}); err != nil {
		t.Fatal(err)
	}

	// While its lease runs, the refusals say until when, and what to do if it is dead.
	held := "holds it until " + until.Format("15:04:05") + " UTC, renewed while it runs"
	again := "if that import's server stopped, send the import again after " + until.Format("15:04:05") + " UTC"
	if _, err := s.BeginImport(ctx, space); realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "being imported") ||
		!strings.Contains(err.Error(), held) || !strings.Contains(err.Error(), again) {
		t.Fatalf("import while another holds the space: %v", err)
	}
	during := []realm.Observation{{ID: "d1", Space: space, Speaker: "Ana", Content: "Ana has a dog.", ObservedAt: time.Now().UTC()}}
	if _, err := s.SaveObservations(ctx, space, "test:e", 3, during, Lease{}); realm.ErrorCode(err) != realm.EConflict ||
		!strings.Contains(err.Error(), held) || !strings.Contains(err.Error(), again) {
		t.Errorf("ingest while an import holds the space: %v", err)
	}
	if err := s.CheckNotImporting(ctx, space); realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), held) ||
		!strings.Contains(err.Error(), again) {
		t.Errorf("recall while an import holds the space: %v", err)
	}
	if _, err := s.ExportSpaceProps(ctx, space); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("export of a space being imported: %v", err)
	}
	// Its lease runs out.
	if _, err := s.write(ctx, qImportRenew, map[string]any{"space": space, "import": dead.id, "until": time.Now().UTC().Add(-time.Second)}); err != nil {
		t.Fatal(err)
	}
	obs := []realm.Observation{{ID: "n1", Space: space, Speaker: "Ana", Content: "Ana adopted a cat.", ObservedAt: time.Now().UTC()}}
	_, err := s.SaveObservations(ctx, space, "test:e", 3, obs, Lease{})
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
	// The space goes on, its recalls keeping their traces: the next import erased what
	// the interrupted one left, not the space.
	tr := realm.Trace{ID: "t-after-import", Space: space, Query: "Where does Ana live?", CreatedAt: time.Now().UTC()}
	if err := s.PutTrace(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trace(ctx, space, tr.ID); err != nil {
		t.Errorf("a recall's trace after the import: %v", err)
	}
}

// TestImportIntoSpaceErased: a space erased while an import writes into it is taken from
// the import at the erasure's first batch: the import's next write, which would join
// memories that batch deleted, is refused as a conflict saying the space was erased,
// not counted short as an internal error, and the erasure leaves nothing of the import.
func TestImportIntoSpaceErased(t *testing.T) {
	s, imp := beginImport(t)
	ctx, space := context.Background(), imp.Space()
	defer imp.Abandon(ctx) // as the API does when a write fails
	now := writeCatAndDog(t, imp)
	// The erasure's first batch, as DeleteSpace runs it, before the import's next write.
	if _, err := s.write(ctx, qSpaceDeleteBatch, map[string]any{"space": space, "batch": 5000, "import": ""}); err != nil {
		t.Fatal(err)
	}
	err := imp.WriteEdges(ctx, []ImportEdge{{From: space + "-cat", To: space + "-dog", Predicate: realm.Precedes, Props: map[string]any{"id": space + "-e", "weight": 0.5}}})
	if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "erased") {
		t.Errorf("the import's write after the erasure began: %v, want a conflict saying the space was erased", err)
	}
	if err := imp.WriteNodes(ctx, "observation", []map[string]any{{"id": "o2", "content": "Ana named the dog Rex.", "speaker": "Ana",
		"status": "integrated", "seq": int64(2), "attempts": int64(0), "observed_at": now}}); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("the import's next batch: %v, want a conflict", err)
	}
	if _, err := s.DeleteSpace(ctx, space); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx, space)
	if err != nil || st.Memories != 0 || st.Observations != 0 {
		t.Errorf("after the erasure: %+v %v, want nothing", st, err)
	}
	if exists, err := s.SpaceExists(ctx, space); err != nil || exists {
		t.Errorf("the space exists after its erasure: %v %v", exists, err)
	}
}

// beginImport begins an import into a new space of a test store.
func beginImport(t *testing.T) (*Store, *Import) {
	t.Helper()
	s := testStore(t, Config{})
	imp, err := s.BeginImport(context.Background(), fullTextSpace(t, s))
	if err != nil {
		t.Fatal(err)
	}
	return s, imp
}

// writeCatAndDog writes, as an import's first batches, the observation o1 and the facts
// space-cat and space-dog derived from it; it returns when.
func writeCatAndDog(t *testing.T, imp *Import) time.Time {
	t.Helper()
	ctx, space, now := context.Background(), imp.Space(), time.Now().UTC()
	if err := imp.WriteNodes(ctx, "observation", []map[string]any{{"id": "o1", "content": "Ana adopted a cat and a dog.", "speaker": "Ana",
		"status": "integrated", "seq": int64(1), "attempts": int64(0), "observed_at": now}}); err != nil {
		t.Fatal(err)
	}
	var mems []ImportMemory
	for _, name := range []string{"cat", "dog"} {
		mems = append(mems, ImportMemory{Type: realm.Fact, DerivedFrom: []string{"o1"}, Props: map[string]any{
			"id": space + "-" + name, "type": "fact", "name": "Ana adopted a " + name, "content": "Ana adopted a " + name + ".",
			"created_at": now, "updated_at": now}})
	}
	if err := imp.WriteMemories(ctx, mems); err != nil {
		t.Fatal(err)
	}
	return now
}

// TestImportHoldsItsWrites: while an import holds its space, the writes of a client that
// would change or delete what it wrote (forgetting a message, deleting a memory, deriving
// an episode again, forgetting traces, reverting a reconsolidation) are refused in their
// own transaction, under the space's lock, as a conflict saying an import holds the
// space, whatever a route checked before (an import may claim the space right after);
// so is a forget's search (About); the import then finishes whole, and the same writes
// work.
func TestImportHoldsItsWrites(t *testing.T) {
	s, imp := beginImport(t)
	ctx, space := context.Background(), imp.Space()
	defer imp.Abandon(ctx)
	now := writeCatAndDog(t, imp)
	if err := imp.WriteNodes(ctx, "trace", []map[string]any{{"id": space + "-t", "query": "What did Ana adopt?", "created_at": now}}); err != nil {
		t.Fatal(err)
	}
	writes := map[string]func() error{
		"DeleteObservation": func() error { _, err := s.DeleteObservation(ctx, space, "o1", Lease{}); return err },
		"DeleteMemory":      func() error { return s.DeleteMemory(ctx, space, space+"-cat") },
		"RederiveMemory": func() error {
			return s.RederiveMemory(ctx, space, realm.Node{ID: space + "-dog", Type: realm.Entity, Name: "Ana adopted a dog"})
		},
		"ForgetTraces":          func() error { _, err := s.ForgetTraces(ctx, space, []string{space + "-t"}, nil); return err },
		"RevertReconsolidation": func() error { _, err := s.RevertReconsolidation(ctx, space, space+"-edit", now); return err },
	}
	for name, write := range writes {
		if err := write(); realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "import into space") {
			t.Errorf("%s while an import holds the space: %v, want a conflict saying an import holds it", name, err)
		}
	}
	// A forget's search, which would answer "nothing found" of a space still filling.
	if about, err := s.About(ctx, space, []string{"Ana"}); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("About while an import holds the space: %+v %v, want a conflict", about, err)
	}
	if err := imp.WriteEdges(ctx, []ImportEdge{{From: space + "-cat", To: space + "-dog", Predicate: realm.Precedes,
		Props: map[string]any{"id": space + "-e", "weight": 0.5}}}); err != nil {
		t.Fatalf("the import's next batch: %v", err)
	}
	if err := imp.Finish(ctx); err != nil {
		t.Fatalf("the import's end: %v", err)
	}
	if st, err := s.Stats(ctx, space); err != nil || st.Memories != 2 || st.Observations != 1 {
		t.Errorf("after the import: %+v %v, want its 2 memories and 1 observation", st, err)
	}
	if err := s.DeleteMemory(ctx, space, space+"-cat"); err != nil {
		t.Errorf("a memory deleted after the import: %v", err)
	}
	if _, err := s.DeleteObservation(ctx, space, "o1", Lease{}); err != nil {
		t.Errorf("a message forgotten after the import: %v", err)
	}
}
