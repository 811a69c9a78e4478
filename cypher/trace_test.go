package cypher_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// mustOpenRetaining opens a second store on the tests' Neo4j that keeps traces for retention.
func mustOpenRetaining(tb testing.TB, retention time.Duration) *cypher.Store {
	tb.Helper()
	cyphertest.MustOpen(tb) // the schema, or a skip without Neo4j
	cfg := cyphertest.Config()
	cfg.TraceRetention = retention
	s, err := cypher.Open(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// The sweep deletes the traces older than the retention, a batch a statement, and keeps
// the newer ones; a read refuses a trace past its retention even before the sweep, and
// says how long traces are kept, as it does for a trace not found.
func TestExpireTraces(t *testing.T) {
	const retention = 720 * time.Hour
	s := mustOpenRetaining(t, retention)
	all := cyphertest.MustOpen(t) // keeps every trace: sees what the sweep left
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	cypher.SetTraceExpireBatch(t, 2)
	now := time.Now().UTC()
	storeObservation(t, all, space) // a trace is stored into a space that exists

	put := func(id string, age time.Duration) string {
		t.Helper()
		id = space + "-" + id
		tr := realm.Trace{ID: id, Space: space, Query: "where does Ana live?", CreatedAt: now.Add(-age)}
		if err := s.PutTrace(ctx, tr); err != nil {
			t.Fatal(err)
		}
		return id
	}
	var old []string
	for i := range 5 { // three batches of 2
		old = append(old, put(fmt.Sprint("old", i), retention+time.Duration(i+1)*time.Hour))
	}
	young := put("young", retention-time.Hour)

	_, err := s.Trace(ctx, space, old[0])
	if realm.ErrorCode(err) != realm.ENotFound || !strings.Contains(err.Error(), "kept for 720h") {
		t.Errorf("a trace past its retention, before the sweep: %v, want not_found naming the retention", err)
	}
	if _, err := all.Trace(ctx, space, old[0]); err != nil {
		t.Fatalf("a store without retention reads the old trace before the sweep: %v", err)
	}
	// A trace it never held, or another space's, is not found, not for its age; the
	// message still says how long traces are kept, since it may be one the sweep deleted.
	for _, where := range []struct{ space, id string }{{space, "no-such-trace"}, {cyphertest.NewSpace(t), young}} {
		_, err := s.Trace(ctx, where.space, where.id)
		if realm.ErrorCode(err) != realm.ENotFound || !strings.Contains(err.Error(), "(traces are kept for 720h)") || strings.Contains(err.Error(), "older than") {
			t.Errorf("trace %s in %s: %v, want not_found saying how long traces are kept, not that this one is older", where.id, where.space, err)
		}
	}

	n, err := s.ExpireTraces(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if n < int64(len(old)) {
		t.Errorf("the sweep deleted %d traces, want at least this test's %d", n, len(old))
	}
	for _, id := range old {
		if _, err := all.Trace(ctx, space, id); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("trace %s, %s old, after the sweep: %v, want it deleted", id, retention, err)
		}
	}
	for _, store := range []*cypher.Store{s, all} {
		if tr, err := store.Trace(ctx, space, young); err != nil || tr.ID != young {
			t.Errorf("the trace younger than the retention after the sweep: %+v %v", tr, err)
		}
	}
	// A day on, the young one is past the retention too; a sweep with nothing to delete
	// deletes nothing.
	if n, err := s.ExpireTraces(ctx, now.Add(24*time.Hour)); err != nil || n < 1 {
		t.Errorf("the sweep a day later: %d %v, want the young trace deleted", n, err)
	}
	if _, err := all.Trace(ctx, space, young); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("the young trace a day later: %v, want it deleted", err)
	}

	t.Run("NoRetention", func(t *testing.T) {
		kept := put("kept", 10*retention)
		if n, err := all.ExpireTraces(ctx, now); n != 0 || err != nil {
			t.Errorf("a store without retention swept %d traces (%v), want none", n, err)
		}
		_, err := all.Trace(ctx, space, kept)
		if err != nil {
			t.Errorf("a store without retention reads an old trace: %v", err)
		}
		_, err = all.Trace(ctx, space, "no-such-trace")
		if realm.ErrorCode(err) != realm.ENotFound || strings.Contains(err.Error(), "kept for") {
			t.Errorf("an unknown trace without retention: %v, want not_found saying nothing of a retention", err)
		}
	})
}

func TestRetentionText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0", 720 * time.Hour: "720h", 90 * time.Minute: "90m", time.Minute: "1m", 90 * time.Second: "1m30s",
	} {
		if got := cypher.RetentionText(d); got != want {
			t.Errorf("RetentionText(%v) = %q, want %q", d, got, want)
		}
	}
}

// The feedback-once rule (edit_batch.cypher) reads the edits logged under a trace's id,
// never the Trace node: after the sweep a second feedback of that trace is still refused
// while the first one's edits stand, and taken once they are reverted.
func TestFeedbackOnceAfterSweep(t *testing.T) {
	s := mustOpenRetaining(t, 720*time.Hour)
	ctx := context.Background()
	space, ids := editGraph(t, s, 2, editTestEdge{0, 1, realm.Precedes, 0.5})
	now := time.Now().UTC()
	trace := realm.Trace{ID: space + "-trace", Space: space, Query: "q", CreatedAt: now.Add(-721 * time.Hour)}
	if err := s.PutTrace(ctx, trace); err != nil {
		t.Fatal(err)
	}
	feedback := func() cypher.EditBatch {
		b := batch(trace.ID, realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1})
		b.Source = realm.EditSourceFeedback
		return b
	}
	first := feedback()
	if _, err := s.ApplyEdits(ctx, space, first); err != nil {
		t.Fatal(err)
	}
	if n, err := s.ExpireTraces(ctx, now); err != nil || n < 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	if _, err := s.ApplyEdits(ctx, space, feedback()); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("a second feedback of the swept trace: %v, want conflict", err)
	}
	if _, err := s.RevertReconsolidation(ctx, space, first.ReconsolidationID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if w := edgeWeights(t, s, space, ids)[edgeKey(ids[0], ids[1], realm.Precedes)]; len(w) != 1 || w[0] != 0.5 {
		t.Errorf("after the revert the edge weighs %v, want [0.5]", w)
	}
	if edits, err := s.ApplyEdits(ctx, space, feedback()); err != nil || len(edits) != 1 {
		t.Errorf("feedback after the revert: %d edits, %v; want one", len(edits), err)
	}
}

// storeObservation stores a message in space, which makes the space exist.
func storeObservation(t *testing.T, s *cypher.Store, space string) {
	t.Helper()
	obs := []realm.Observation{{ID: "o1", Speaker: "Ann", Content: "Ana lives in Lisbon.", ObservedAt: time.Now()}}
	if _, err := s.SaveObservations(context.Background(), space, "test:bow", 384, obs, cypher.Lease{}); err != nil {
		t.Fatal(err)
	}
}

// TestErasedSpaceKeepsNoTrace: a recall that outlives the erasure of its space (its
// trace written after the space was erased) leaves no trace of its query, and the space
// stays erased.
func TestErasedSpaceKeepsNoTrace(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	storeObservation(t, s, space)
	put := func(id string) error {
		return s.PutTrace(ctx, realm.Trace{ID: space + "-" + id, Space: space, Query: "does Pierre have diabetes?", CreatedAt: time.Now().UTC()})
	}
	if err := put("before"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trace(ctx, space, space+"-before"); err != nil {
		t.Fatalf("a trace of a space that exists: %v", err)
	}
	if _, err := s.DeleteSpace(ctx, space); err != nil {
		t.Fatal(err)
	}
	if err := put("after"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trace(ctx, space, space+"-after"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("a trace written after its space was erased: %v, want not_found", err)
	}
	if exists, err := s.SpaceExists(ctx, space); err != nil || exists {
		t.Errorf("space exists %v (%v) after its erasure and a late trace", exists, err)
	}
}
