package cypher

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestImportHoldsSpace: from BeginImport until its Run returns, the space refuses ingest
// (nothing stored) and recall (CheckNotImporting) with a conflict that says an import
// runs, and its imported pending observations are not claimed for integration; after the
// import all of them work. An interrupted import's mark refuses them too, saying so.
func TestImportHoldsSpace(t *testing.T) {
	s := openExportStore(t)
	ctx := context.Background()
	space := testSpace(t, s)
	file := strings.ReplaceAll(smallExport, "SPACE", space)
	obs := []realm.Observation{{ID: "n1", Space: space, Speaker: "Ana", Content: "Ana adopted a cat.", ObservedAt: time.Now().UTC()}}
	// An expired lease: whatever this claims of other spaces' pending work stays free for them.
	claimer := Lease{Owner: "claimer-" + space, Until: time.Now().Add(-time.Minute)}
	claimsMine := func() bool {
		t.Helper()
		got, err := s.ClaimPending(ctx, space, claimer, 1_000_000, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range got {
			if o.Space == space {
				return true
			}
		}
		return false
	}

	imp, err := s.BeginImport(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	// The second reading (the writing) is held after the first memory record: the
	// observations are written, the memories not yet.
	memories := strings.Index(file, `{"kind":"memory"`)
	secondMemory := memories + strings.Index(file[memories:], "\n") + 1
	edges := strings.Index(file, `{"kind":"edge"`)
	pr, pw := io.Pipe()
	calls := 0
	open := func() (io.ReadCloser, error) {
		if calls++; calls == 1 {
			return io.NopCloser(strings.NewReader(file)), nil
		}
		return pr, nil
	}
	done := make(chan error, 1)
	go func() { _, err := imp.Run(ctx, open, smallOpts); done <- err }()
	if _, err := pw.Write([]byte(file[:secondMemory])); err != nil {
		t.Fatal(err)
	}
	// Taken only once the lines before it are processed: the observations' batch is written.
	if _, err := pw.Write([]byte(file[secondMemory:edges])); err != nil {
		t.Fatal(err)
	}

	if o, err := s.Observation(ctx, space, "o2"); err != nil || o.Status != realm.ObservationPending {
		t.Fatalf("mid-import, the imported pending observation: %+v %v", o, err)
	}
	for name, err := range map[string]error{
		"ingest": func() error {
			_, err := s.SaveObservations(ctx, space, "test:e", 3, obs, Lease{})
			return err
		}(),
		"recall": s.CheckNotImporting(ctx, space),
	} {
		if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "import into space") || !strings.Contains(err.Error(), "running") {
			t.Errorf("%s during the import: %v, want a conflict saying an import runs", name, err)
		}
	}
	if claimsMine() {
		t.Errorf("an imported pending observation was claimed during the import")
	}
	if _, err := s.Observation(ctx, space, "n1"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("the refused observation was stored: %v", err)
	}
	if _, err := s.BeginImport(ctx, space); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("a second import during the first: %v", err)
	}

	if _, err := pw.Write([]byte(file[edges:])); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := exportOf(t, s, space); got != file {
		t.Errorf("export after the held import:\n%s", got)
	}
	if err := s.CheckNotImporting(ctx, space); err != nil {
		t.Errorf("recall after the import: %v", err)
	}
	if !claimsMine() {
		t.Errorf("the imported pending observation is not claimable after the import")
	}
	if saved, err := s.SaveObservations(ctx, space, "test:e", 3, obs, Lease{}); err != nil || !saved[0].New {
		t.Errorf("ingest after the import: %+v %v", saved, err)
	}

	t.Run("Interrupted", func(t *testing.T) {
		other := testSpace(t, s)
		imp, err := s.BeginImport(ctx, other)
		if err != nil {
			t.Fatal(err)
		}
		// Its process dies: the lease runs out.
		imp.stop()
		if _, err := s.write(ctx, qImportRenew, map[string]any{"space": other, "import": imp.im.id, "until": time.Now().UTC().Add(-time.Second)}); err != nil {
			t.Fatal(err)
		}
		_, err = s.SaveObservations(ctx, other, "test:e", 3, obs, Lease{})
		if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("ingest into an interrupted import's space: %v", err)
		}
		if err := s.CheckNotImporting(ctx, other); realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("recall of an interrupted import's space: %v", err)
		}
		// The next import erases the leftovers and ends the refusal.
		if _, err := s.ImportSpace(ctx, other, opener(file), smallOpts); err != nil { // a copy: new ids
			t.Fatal(err)
		}
		if err := s.CheckNotImporting(ctx, other); err != nil {
			t.Errorf("after the next import: %v", err)
		}
	})
}
