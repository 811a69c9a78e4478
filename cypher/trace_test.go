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

// erasureGraph is a store that keeps traces for 720h and a space of four memories, the
// first two joined by a PRECEDES edge, for the erasure tests.
func erasureGraph(t *testing.T) (*cypher.Store, string, []string) {
	s := mustOpenRetaining(t, 720*time.Hour)
	space, ids := editGraph(t, s, 4, editTestEdge{0, 1, realm.Precedes, 0.5})
	return s, space, ids
}

// The sweep erases a trace's query from everything its reconsolidations wrote: the edits
// logged from it (query emptied, query_erased set) and the learned links they added, whose
// description quoted the query and which keep instead the query's vector as the sweep was
// given it. A younger trace's edits and links keep theirs, and reverting the old trace's
// reconsolidation afterwards restores every weight to the bit.
func TestExpireTracesErasesQueries(t *testing.T) {
	const asked = "Where does Daniel Kowalski live?"
	s, space, ids := erasureGraph(t)
	ctx := context.Background()
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

	var embedded []string // this space's queries the sweep had embedded
	if _, err := s.ExpireTraces(ctx, now, erasingVectors(space, &embedded)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(embedded, []string{asked}) {
		t.Errorf("the sweep embedded %q of this space, want the old trace's query once", embedded)
	}
	checkErased(t, s, space, ids, old, young)

	if _, err := s.RevertReconsolidation(ctx, space, learned.ReconsolidationID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if after, err := s.EdgeWeights(ctx, space); err != nil || !maps.Equal(before, after) {
		t.Errorf("after the revert the edges are\n%v (%v)\nwant as before the swept trace's edits\n%v", after, err, before)
	}
}

// The edits and learned links of a trace deleted without its question being erased (by
// the sweep of an earlier version, or left out of an imported file) lose the text at the
// next sweep, as those of a trace past the retention do, whatever the trace's age: the
// link keeps instead the question's vector. A sweep that cannot embed erases and deletes
// nothing; one after it that has erased everything has nothing more to embed; reverting
// the reconsolidation afterwards restores every weight to the bit.
func TestExpireTracesErasesQueriesOfDeletedTraces(t *testing.T) {
	const asked = "Where does Daniel Kowalski live?"
	s, space, ids := erasureGraph(t)
	ctx := context.Background()
	now := time.Now().UTC()
	gone := realm.Trace{ID: space + "-gone", Space: space, Query: asked, CreatedAt: now.Add(-time.Hour)}
	kept := realm.Trace{ID: space + "-kept", Space: space, Query: "Where does Daniel work?", CreatedAt: now.Add(-time.Hour)}
	old := realm.Trace{ID: space + "-old", Space: space, Query: "q", CreatedAt: now.Add(-721 * time.Hour)}
	for _, tr := range []realm.Trace{gone, kept, old} {
		if err := s.PutTrace(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	link := func(trace realm.Trace, from, to int, p realm.Predicate) cypher.EditBatch {
		return batch(trace.ID, realm.EditProposal{From: ids[from], To: ids[to], Action: realm.EditAdd, Predicate: p, Confidence: 0.8, Query: trace.Query, Label: realm.KeyEvidence})
	}
	for _, b := range []cypher.EditBatch{link(kept, 1, 3, realm.Contextualizes), link(gone, 2, 3, realm.Enables)} {
		if _, err := s.ApplyEdits(ctx, space, b); err != nil {
			t.Fatal(err)
		}
	}
	// The second link is reverted: its add's edit keeps the question, with no link.
	reverted, _, err := s.ListEdits(ctx, space, realm.EditFilter{TraceID: gone.ID}, "")
	if err != nil || len(reverted) != 1 {
		t.Fatalf("edits of the gone trace: %+v %v", reverted, err)
	}
	if _, err := s.RevertReconsolidation(ctx, space, reverted[0].ReconsolidationID, time.Now()); err != nil {
		t.Fatal(err)
	}
	before, err := s.EdgeWeights(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	learned := link(gone, 0, 2, realm.Correlates) // symmetric: written both ways
	learned.Edits = append(learned.Edits, realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 0.9})
	if edits, err := s.ApplyEdits(ctx, space, learned); err != nil || len(edits) != 3 {
		t.Fatalf("apply: %d edits, %v; want 3", len(edits), err)
	}
	if err := cypher.DeleteTraceOnly(ctx, s, space, gone.ID); err != nil {
		t.Fatal(err)
	}

	// What the space holds of the gone trace's question: in its edits, in its links.
	held := func() (edits, links int) {
		t.Helper()
		all, _, err := s.ListEdits(ctx, space, realm.EditFilter{}, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range all {
			if e.Query == asked {
				edits++
			}
		}
		ls, err := s.LearnedLinks(ctx, space, ids)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ls {
			if l.Edge.Query == asked || strings.Contains(l.Edge.Description, asked) {
				links++
			}
		}
		return edits, links
	}
	modelAway := func(ctx context.Context, sp string, queries []string) ([][]float32, error) {
		return nil, realm.Errorf(realm.EUnavailable, "the embedding model is away")
	}
	if _, err := s.ExpireTraces(ctx, now, modelAway); err == nil {
		t.Error("a sweep that cannot embed: no error")
	}
	if edits, links := held(); edits != 3 || links != 2 {
		t.Errorf("after a sweep that cannot embed the space holds the question in %d edits and %d links, want the 3 and 2 it held", edits, links)
	}
	if _, err := s.Trace(ctx, space, old.ID); realm.ErrorCode(err) != realm.ENotFound || !strings.Contains(err.Error(), "older than") {
		t.Errorf("the trace past the retention after a sweep that cannot embed: %v, want it still stored", err)
	}

	var embedded []string // this space's queries the sweeps had embedded
	for range 2 {         // the second finds nothing left to erase
		if _, err := s.ExpireTraces(ctx, now, erasingVectors(space, &embedded)); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(embedded, []string{asked}) {
		t.Errorf("the sweeps embedded %q of this space, want the gone trace's question once", embedded)
	}
	if edits, links := held(); edits != 0 || links != 0 {
		t.Errorf("after the sweep the space holds the question in %d edits and %d links, want none", edits, links)
	}
	checkErased(t, s, space, ids, gone, kept)
	if _, err := s.Trace(ctx, space, old.ID); realm.ErrorCode(err) != realm.ENotFound || strings.Contains(err.Error(), "older than") {
		t.Errorf("the trace past the retention after the sweep: %v, want it deleted", err)
	}

	if _, err := s.RevertReconsolidation(ctx, space, learned.ReconsolidationID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if after, err := s.EdgeWeights(ctx, space); err != nil || !maps.Equal(before, after) {
		t.Errorf("after the revert the edges are\n%v (%v)\nwant as before the gone trace's edits\n%v", after, err, before)
	}
}

// A sweep reads the edits that still hold a query's text, not those an earlier sweep
// erased: after a sweep has erased this space's hundred learned links' queries, the next
// makes fewer database hits than there are edits here (one reading every Edit node, as
// the sweep did, makes a hit for each of them and for each property it reads).
func TestExpireTracesSkipsErasedEdits(t *testing.T) {
	const links = 100
	s := mustOpenRetaining(t, 720*time.Hour)
	space, ids := editGraph(t, s, 11)
	ctx := context.Background()
	now := time.Now().UTC()
	old := realm.Trace{ID: space + "-old", Space: space, Query: "Where does Daniel Kowalski live?", CreatedAt: now.Add(-721 * time.Hour)}
	if err := s.PutTrace(ctx, old); err != nil {
		t.Fatal(err)
	}
	var adds []realm.EditProposal
	for i := range ids {
		for j := range ids {
			if i != j && len(adds) < links {
				adds = append(adds, realm.EditProposal{From: ids[i], To: ids[j], Action: realm.EditAdd, Predicate: realm.Contextualizes,
					Confidence: 0.8, Query: old.Query, Label: realm.KeyEvidence})
			}
		}
	}
	if edits, err := s.ApplyEdits(ctx, space, batch(old.ID, adds...)); err != nil || len(edits) != links {
		t.Fatalf("apply: %d edits, %v; want %d", len(edits), err, links)
	}
	var embedded []string
	if _, err := s.ExpireTraces(ctx, now, erasingVectors(space, &embedded)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(embedded, []string{old.Query}) {
		t.Fatalf("the first sweep embedded %q of this space, want the old trace's query once", embedded)
	}
	profiled, log := cypher.WithStatementProfile(ctx)
	if _, err := s.ExpireTraces(profiled, now, anyVectors); err != nil {
		t.Fatal(err)
	}
	var hits int64
	for _, x := range log.Statements {
		hits += x.DBHits
	}
	if hits >= links {
		t.Errorf("the second sweep made %d database hits in %d statements, want fewer than this space's %d erased edits", hits, len(log.Statements), links)
	}
}

// erasedVector is the vector erasingVectors gives a query.
var erasedVector = []float32{0.25, -0.5, 0.125}

// erasingVectors gives each query of space erasedVector, appending it to embedded, and
// those of other spaces anyVectors (a sweep reaches every space).
func erasingVectors(space string, embedded *[]string) cypher.QueryVectors {
	return func(ctx context.Context, sp string, queries []string) ([][]float32, error) {
		if sp != space {
			return anyVectors(ctx, sp, queries)
		}
		*embedded = append(*embedded, queries...)
		out := make([][]float32, len(queries))
		for i := range out {
			out[i] = erasedVector
		}
		return out, nil
	}
}

// checkErased checks the space's edits and learned links after a sweep (erasingVectors)
// that erased the query of trace erased and kept kept's: the three links written, kept's
// a CONTEXTUALIZES one holding its query; erased's adds without the query but labelled, its
// strengthens without one to erase, its links still learned, without the text, holding
// erasedVector.
func checkErased(t *testing.T, s *cypher.Store, space string, ids []string, erased, kept realm.Trace) {
	t.Helper()
	ctx := context.Background()
	edits, _, err := s.ListEdits(ctx, space, realm.EditFilter{}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		erasedOne := e.TraceID == erased.ID
		switch {
		case erasedOne && e.Action == realm.EditAdd && (e.Query != "" || !e.QueryErased || e.Label != realm.KeyEvidence):
			t.Errorf("a learned link's add of the erased trace: query %q, erased %v, label %q; want the query erased, the label kept", e.Query, e.QueryErased, e.Label)
		case erasedOne && e.Action != realm.EditAdd && (e.Query != "" || e.QueryErased):
			t.Errorf("a strengthen of the erased trace: query %q, erased %v; want none to erase", e.Query, e.QueryErased)
		case !erasedOne && (e.Query != kept.Query || e.QueryErased):
			t.Errorf("an edit of the kept trace: query %q, erased %v; want it kept", e.Query, e.QueryErased)
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
			if e.Query != kept.Query || e.Description != kept.Query || e.QueryErased || l.QueryVector != nil {
				t.Errorf("the kept trace's link: %+v, vector %v; want its query kept", e, l.QueryVector)
			}
			continue
		}
		if e.Query != "" || !e.QueryErased || strings.Contains(e.Description, erased.Query) || !e.Learned() || e.Label != realm.KeyEvidence ||
			!slices.Equal(l.QueryVector, erasedVector) {
			t.Errorf("a link of the erased trace: %+v, vector %v; want its query and description without the text, still a learned link, the vector %v",
				e, l.QueryVector, erasedVector)
		}
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
