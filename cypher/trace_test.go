package cypher_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
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

	n, err := s.ExpireTraces(ctx, now, anyVectors)
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
	if n, err := s.ExpireTraces(ctx, now.Add(24*time.Hour), anyVectors); err != nil || n < 1 {
		t.Errorf("the sweep a day later: %d %v, want the young trace deleted", n, err)
	}
	if _, err := all.Trace(ctx, space, young); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("the young trace a day later: %v, want it deleted", err)
	}

	t.Run("NoRetention", func(t *testing.T) {
		kept := put("kept", 10*retention)
		if n, err := all.ExpireTraces(ctx, now, anyVectors); n != 0 || err != nil {
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

// anyVectors gives every query the same vector: the sweep reaches every space's old
// traces, other tests' too, and some have learned links.
func anyVectors(_ context.Context, _ string, queries []string) ([][]float32, error) {
	out := make([][]float32, len(queries))
	for i := range out {
		out[i] = []float32{1, 0}
	}
	return out, nil
}

// The sweep erases a trace's query from everything its reconsolidations wrote: the edits
// logged from it (query emptied, query_erased set) and the learned links they added, whose
// description quoted the query and which keep instead the query's vector as the sweep was
// given it. A younger trace's edits and links keep theirs, and reverting the old trace's
// reconsolidation afterwards restores every weight to the bit.
func TestExpireTracesErasesQueries(t *testing.T) {
	const asked = "Where does Daniel Kowalski live?"
	s := mustOpenRetaining(t, 720*time.Hour)
	ctx := context.Background()
	space, ids := editGraph(t, s, 4, editTestEdge{0, 1, realm.Precedes, 0.5})
	now := time.Now().UTC()
	old := realm.Trace{ID: space + "-old", Space: space, Query: asked, CreatedAt: now.Add(-721 * time.Hour)}
	young := realm.Trace{ID: space + "-young", Space: space, Query: "Where does Daniel work?", CreatedAt: now.Add(-time.Hour)}
	for _, tr := range []realm.Trace{old, young} {
		if err := s.PutTrace(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	link := func(from, to int, p realm.Predicate, query string) realm.EditProposal {
		return realm.EditProposal{From: ids[from], To: ids[to], Action: realm.EditAdd, Predicate: p, Confidence: 0.8, Query: query, Label: realm.KeyEvidence}
	}
	if _, err := s.ApplyEdits(ctx, space, batch(young.ID, link(1, 3, realm.Contextualizes, young.Query))); err != nil {
		t.Fatal(err)
	}
	before, err := s.EdgeWeights(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	// A correlates link (symmetric: written both ways) and a strengthen.
	learned := batch(old.ID, link(0, 2, realm.Correlates, asked),
		realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 0.9})
	if edits, err := s.ApplyEdits(ctx, space, learned); err != nil || len(edits) != 3 {
		t.Fatalf("apply: %d edits, %v; want 3", len(edits), err)
	}

	vector := []float32{0.25, -0.5, 0.125}
	var embedded []string // this space's queries the sweep had embedded
	embed := func(ctx context.Context, sp string, queries []string) ([][]float32, error) {
		if sp != space {
			return anyVectors(ctx, sp, queries)
		}
		embedded = append(embedded, queries...)
		out := make([][]float32, len(queries))
		for i := range out {
			out[i] = vector
		}
		return out, nil
	}
	if _, err := s.ExpireTraces(ctx, now, embed); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(embedded, []string{asked}) {
		t.Errorf("the sweep embedded %q of this space, want the old trace's query once", embedded)
	}

	edits, err := s.ListEdits(ctx, space, realm.EditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		oldOne := e.TraceID == old.ID
		switch {
		case oldOne && e.Action == realm.EditAdd && (e.Query != "" || !e.QueryErased || e.Label != realm.KeyEvidence):
			t.Errorf("a learned link's add of the swept trace: query %q, erased %v, label %q; want the query erased, the label kept", e.Query, e.QueryErased, e.Label)
		case oldOne && e.Action != realm.EditAdd && (e.Query != "" || e.QueryErased):
			t.Errorf("a strengthen of the swept trace: query %q, erased %v; want none to erase", e.Query, e.QueryErased)
		case !oldOne && (e.Query != young.Query || e.QueryErased):
			t.Errorf("an edit of the young trace: query %q, erased %v; want it kept", e.Query, e.QueryErased)
		}
	}
	links, err := s.LearnedLinks(ctx, space, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 3 {
		t.Fatalf("%d learned links after the sweep, want the 3 written", len(links))
	}
	for _, l := range links {
		e := l.Edge
		if e.Predicate == realm.Contextualizes {
			if e.Query != young.Query || e.Description != young.Query || e.QueryErased || l.QueryVector != nil {
				t.Errorf("the young trace's link: %+v, vector %v; want its query kept", e, l.QueryVector)
			}
			continue
		}
		if e.Query != "" || !e.QueryErased || strings.Contains(e.Description, "Daniel") || !e.Learned() || e.Label != realm.KeyEvidence ||
			!slices.Equal(l.QueryVector, vector) {
			t.Errorf("a link of the swept trace: %+v, vector %v; want its query and description without the text, still a learned link, the vector %v",
				e, l.QueryVector, vector)
		}
	}

	if _, err := s.RevertReconsolidation(ctx, space, learned.ReconsolidationID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if after, err := s.EdgeWeights(ctx, space); err != nil || !maps.Equal(before, after) {
		t.Errorf("after the revert the edges are\n%v (%v)\nwant as before the swept trace's edits\n%v", after, err, before)
	}
}

// A re-embed with another model leaves the learned links whose query's text was erased
// without the query's vector, the former model's: compared with the new model's vectors
// it would measure nothing; without its text it cannot be embedded again.
func TestReembedDropsErasedQueryVectors(t *testing.T) {
	s := mustOpenRetaining(t, 720*time.Hour)
	ctx := context.Background()
	space, ids := editGraph(t, s, 2)
	old := realm.Trace{ID: space + "-old", Space: space, Query: "Where does Daniel Kowalski live?", CreatedAt: time.Now().Add(-721 * time.Hour)}
	if err := s.PutTrace(ctx, old); err != nil {
		t.Fatal(err)
	}
	link := realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditAdd, Predicate: realm.Contextualizes, Confidence: 0.8, Query: old.Query, Label: realm.KeyEvidence}
	if _, err := s.ApplyEdits(ctx, space, batch(old.ID, link)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ExpireTraces(ctx, time.Now(), anyVectors); err != nil {
		t.Fatal(err)
	}
	links := func() []cypher.LearnedLink {
		t.Helper()
		links, err := s.LearnedLinks(ctx, space, ids)
		if err != nil || len(links) != 1 || !links[0].Edge.QueryErased {
			t.Fatalf("learned links: %+v (%v), want the one, its query erased", links, err)
		}
		return links
	}
	if v := links()[0].QueryVector; len(v) == 0 {
		t.Fatal("the erased link holds no vector before the re-embed")
	}
	if _, err := s.ReembedSpace(ctx, space, embed.NewHash(cyphertest.Dims), cypher.ReembedOptions{}); err != nil {
		t.Fatal(err)
	}
	if v := links()[0].QueryVector; v != nil {
		t.Errorf("after the re-embed the erased link holds the former model's vector %v, want none", v)
	}
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
	if n, err := s.ExpireTraces(ctx, now, anyVectors); err != nil || n < 1 {
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
