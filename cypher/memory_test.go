package cypher_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// unitVec is a 384-d unit vector pointing mostly along axis i, a little along j.
func unitVec(i, j int, mix float64) []float32 {
	v := make([]float32, cyphertest.Dims)
	v[i] = float32(math.Sqrt(1 - mix*mix))
	v[j] += float32(mix)
	return v
}

func mustSave(t *testing.T, s *cypher.Store, space string, ids ...string) []cypher.SavedObservation {
	t.Helper()
	var obs []realm.Observation
	for _, id := range ids {
		obs = append(obs, realm.Observation{ID: id, Speaker: "Ann", Content: "content of " + id, ObservedAt: time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)})
	}
	// Leased to an owner of this space alone, so that a ResumePending of another package's
	// tests running at the same time never integrates them.
	saved, err := s.SaveObservations(context.Background(), space, "test:bow", cyphertest.Dims, obs, testLease(space))
	if err != nil {
		t.Fatal(err)
	}
	return saved
}

// mustApply integrates observation obs with a fixed decision.
func mustApply(t *testing.T, s *cypher.Store, space, obs string, in cypher.Integration) cypher.Applied {
	t.Helper()
	applied, err := s.ApplyIntegration(context.Background(), space, obs, cypher.NeighbourQuery{}, nil, in)
	if err != nil {
		t.Fatal(err)
	}
	return applied
}

func testLease(space string) cypher.Lease {
	return cypher.Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
}

func node(typ realm.NodeType, name string, emb []float32) realm.Node {
	return realm.Node{ID: uuid.NewString(), Type: typ, Name: name, Content: name + " is a memory", Keywords: []string{name}, Embedding: emb}
}

func TestSaveObservations(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Run("OK", func(t *testing.T) {
		saved := mustSave(t, s, space, "a", "b")
		for i, o := range saved {
			if !o.New || o.Observation.Seq != int64(i+1) || o.Observation.Status != realm.ObservationPending {
				t.Errorf("saved[%d] = %+v, want new, seq %d, pending", i, o, i+1)
			}
		}
	})
	t.Run("Idempotent", func(t *testing.T) {
		saved := mustSave(t, s, space, "b", "c")
		if saved[0].New || saved[0].Observation.Seq != 2 || !saved[1].New || saved[1].Observation.Seq != 3 {
			t.Errorf("got %+v, want b old with seq 2, c new with seq 3", saved)
		}
	})
	t.Run("RepeatedInBatch", func(t *testing.T) {
		saved := mustSave(t, s, space, "d", "c", "e", "d")
		want := []struct {
			id  string
			new bool
			seq int64
		}{{"d", true, 4}, {"c", false, 3}, {"e", true, 5}, {"d", false, 4}}
		for i, w := range want {
			if o := saved[i]; o.Observation.ID != w.id || o.New != w.new || o.Observation.Seq != w.seq || !o.Claimed {
				t.Errorf("saved[%d] = %+v, want %s new=%v seq %d claimed", i, o, w.id, w.new, w.seq)
			}
		}
	})
	t.Run("Lease", func(t *testing.T) {
		got, err := s.ClaimPending(ctx, space, testLease(space), 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		mine := 0
		for _, o := range got {
			if o.Space == space {
				mine++
			}
		}
		if mine != 5 {
			t.Errorf("the owner claimed %d of the space's 5 pending observations", mine)
		}
		other, err := s.ClaimPending(ctx, space, cypher.Lease{Owner: "r2", Until: time.Now().Add(time.Minute)}, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range other {
			if o.Space == space {
				t.Errorf("r2 claimed %s leased to another owner", o.ID)
			}
		}
	})
	t.Run("RenewAndHandBack", func(t *testing.T) {
		ab := []cypher.ObservationRef{{Space: space, ID: "a"}, {Space: space, ID: "b"}}
		r2 := cypher.Lease{Owner: "r2", Until: time.Now().Add(time.Minute)}
		if got, err := s.RenewLeases(ctx, r2, ab); err != nil || len(got) != 0 {
			t.Errorf("r2 renewed %+v, %v: leases another owner holds", got, err)
		}
		if got, err := s.RenewLeases(ctx, testLease(space), ab); err != nil || len(got) != 2 || got[0].ID != "a" || got[1].ID != "b" {
			t.Errorf("the owner renewed %+v, %v; want a, b", got, err)
		}
		if n, err := s.ReleaseLeasesOf(ctx, testLease(space).Owner, ab[:1]); err != nil || n != 1 {
			t.Errorf("handed back %d, %v; want 1", n, err)
		}
		other, err := s.ClaimPending(ctx, space, r2, 1000, nil)
		if err != nil || len(other) != 1 || other[0].ID != "a" {
			t.Errorf("r2 claimed %+v, %v; want a alone, handed back", other, err)
		}
	})
	t.Run("Recent", func(t *testing.T) {
		recent, err := s.RecentObservations(ctx, space, 3, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(recent) != 2 || recent[0].ID != "a" || recent[1].ID != "b" {
			t.Errorf("recent = %+v, want a, b", recent)
		}
	})
	t.Run("Error", func(t *testing.T) {
		for _, tc := range []struct {
			id     string
			max    int
			counts bool
			want   string
		}{{"b", 3, true, realm.ObservationPending}, {"c", 1, false, realm.ObservationPending}, {"c", 1, true, realm.ObservationFailed}} {
			status, err := s.MarkObservationError(ctx, space, tc.id, "boom", tc.max, tc.counts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if status != tc.want {
				t.Errorf("%s: status %s, want %s", tc.id, status, tc.want)
			}
		}
	})
	t.Run("Summary", func(t *testing.T) {
		if err := s.SetSpaceSummary(ctx, space, "Ann talks."); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.SpaceSummary(ctx, space); got != "Ann talks." {
			t.Errorf("summary %q", got)
		}
	})
}

func TestApplyIntegration(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	mustSave(t, s, space, "o1", "o2")
	when := time.Date(2023, 5, 7, 0, 0, 0, 0, time.UTC)
	ann := node(realm.Entity, "Ann", unitVec(0, 1, 0.1))
	hike := node(realm.Event, "Hike", unitVec(2, 3, 0.1))
	hike.TStart, hike.TEnd = &when, &when
	applied := mustApply(t, s, space, "o1", cypher.Integration{
		Adds: []realm.Node{ann, hike},
		Edges: []cypher.EdgeWrite{
			{Op: cypher.EdgeAdd, From: hike.ID, To: ann.ID, Predicate: realm.Instantiates, Weight: 0.8, Confidence: 0.9},
			{Op: cypher.EdgeAdd, From: hike.ID, To: ann.ID, Predicate: realm.Correlates, Weight: 0.5},
		},
		Summary: "Ann hiked.",
	})
	if !applied.Applied || len(applied.Edges) != 3 {
		t.Fatalf("applied %+v, want 3 edges (correlates both ways)", applied)
	}
	t.Run("Get", func(t *testing.T) {
		got, edges, err := s.GetMemory(ctx, space, hike.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Type != realm.Event || got.TStart == nil || !got.TStart.Equal(when) || len(got.Sources) != 1 || got.Sources[0] != "o1" {
			t.Errorf("got %+v", got)
		}
		if len(edges) != 3 {
			t.Errorf("edges %+v, want 3", edges)
		}
	})
	t.Run("AlreadyIntegrated", func(t *testing.T) {
		again := mustApply(t, s, space, "o1", cypher.Integration{Adds: []realm.Node{node(realm.Fact, "X", nil)}})
		if again.Applied {
			t.Error("an integrated observation was integrated again")
		}
	})
	t.Run("MergeAndNoDuplicateEdge", func(t *testing.T) {
		applied := mustApply(t, s, space, "o2", cypher.Integration{
			Merges: []cypher.Merge{{ID: ann.ID, Content: "Ann is a hiker", Keywords: []string{"Ann", "hiker"}}},
			Edges:  []cypher.EdgeWrite{{Op: cypher.EdgeModify, From: hike.ID, To: ann.ID, Predicate: realm.Instantiates, Weight: 0.7}},
		})
		if !applied.Applied {
			t.Fatal("not applied")
		}
		got, edges, _ := s.GetMemory(ctx, space, ann.ID)
		if got.Content != "Ann is a hiker" || len(got.Sources) != 2 || len(got.Embedding) != 0 {
			t.Errorf("merged node %+v", got)
		}
		if len(edges) != 3 {
			t.Errorf("edges %+v, want still 3", edges)
		}
	})
	t.Run("ErrMergeOtherSpace", func(t *testing.T) {
		other := cyphertest.NewSpace(t)
		mustSave(t, s, other, "x")
		_, err := s.ApplyIntegration(ctx, other, "x", cypher.NeighbourQuery{}, nil, cypher.Integration{Merges: []cypher.Merge{{ID: ann.ID}}})
		if realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
		if o, _ := s.Observation(ctx, other, "x"); o.Status != realm.ObservationPending {
			t.Errorf("observation %s after a failed integration", o.Status)
		}
	})
	t.Run("Stats", func(t *testing.T) {
		st, err := s.Stats(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		if st.Memories != 2 || st.ByType[realm.Event] != 1 || st.ByPredicate[realm.Correlates] != 2 || st.Edges != 3 ||
			st.WeightHistogram[5] != 2 || st.WeightHistogram[7] != 1 || st.Observations != 2 || st.ObservationsPending != 0 {
			t.Errorf("stats %+v", st)
		}
	})
	t.Run("Graph", func(t *testing.T) {
		nodes, edges, err := s.Graph(ctx, space, ann.ID, 1, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) != 2 || len(edges) != 3 {
			t.Errorf("graph %d nodes %d edges, want 2 and 3", len(nodes), len(edges))
		}
		if _, _, err := s.Graph(ctx, space, "nope", 1, 10); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("got %v, want not found", err)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		if err := s.DeleteMemory(ctx, space, hike.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.GetMemory(ctx, space, hike.ID); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("got %v, want not found", err)
		}
		if err := s.DeleteMemory(ctx, space, hike.ID); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("second delete: %v, want not found", err)
		}
	})
}

// TestApplyIntegrationEdgeOps writes the edge ops of one integration in order, in
// batches broken by deletes: a later op on the same pair and predicate updates the edge
// an earlier one wrote, a delete removes what was written before it.
func TestApplyIntegrationEdgeOps(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	mustSave(t, s, space, "o1")
	a, b := node(realm.Event, "A", unitVec(0, 1, 0.1)), node(realm.Event, "B", unitVec(2, 3, 0.1))
	applied := mustApply(t, s, space, "o1", cypher.Integration{
		Adds: []realm.Node{a, b},
		Edges: []cypher.EdgeWrite{
			{Op: cypher.EdgeAdd, From: a.ID, To: b.ID, Predicate: realm.Correlates, Weight: 0.5},
			{Op: cypher.EdgeAdd, From: a.ID, To: b.ID, Predicate: realm.Precedes, Weight: 0.6},
			{Op: cypher.EdgeModify, From: a.ID, To: b.ID, Predicate: realm.Precedes, Weight: 0.9},
			{Op: cypher.EdgeDelete, From: a.ID, To: b.ID, Predicate: realm.Correlates},
			{Op: cypher.EdgeAdd, From: b.ID, To: a.ID, Predicate: realm.Supersedes, Weight: 0.8},
			{Op: cypher.EdgeAdd, From: a.ID, To: "not-a-memory", Predicate: realm.Supersedes, Weight: 0.8},
		},
		Summary: "A then B.",
	})
	var got []string
	for _, e := range applied.Edges {
		got = append(got, fmt.Sprintf("%s>%s %s %.1f", e.From[:1], e.To[:1], e.Predicate, e.Weight))
	}
	if len(applied.Edges) != 5 || applied.Edges[2].ID != applied.Edges[3].ID || applied.Edges[0].ID == applied.Edges[1].ID {
		t.Errorf("written %v, want correlates both ways, precedes twice (one edge), supersedes", got)
	}
	_, edges, err := s.GetMemory(ctx, space, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, e := range edges {
		stored = append(stored, fmt.Sprintf("%s %.1f from a=%v", e.Predicate, e.Weight, e.From == a.ID))
	}
	sort.Strings(stored)
	if want := "[precedes 0.9 from a=true supersedes 0.8 from a=false]"; fmt.Sprint(stored) != want {
		t.Errorf("stored %v, want %s", stored, want)
	}
	if sum, _ := s.SpaceSummary(ctx, space); sum != "A then B." {
		t.Errorf("summary %q", sum)
	}
	win, err := s.ExtractionContext(ctx, space, 2, 5)
	if recent := win.Observations; err != nil || win.Summary != "A then B." || len(recent) != 1 || recent[0].ID != "o1" || recent[0].Status != realm.ObservationIntegrated {
		t.Errorf("extraction context %q %+v %v", win.Summary, recent, err)
	}
}

func TestNeighbourhoods(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	a, b := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	mustSave(t, s, a, "o1", "o2")
	mustSave(t, s, b, "o1")
	near := node(realm.Fact, "Paris", unitVec(5, 6, 0.1))
	far := node(realm.Fact, "Tokyo", unitVec(7, 8, 0.1))
	mustApply(t, s, a, "o1", cypher.Integration{Adds: []realm.Node{near, far}})
	mustApply(t, s, b, "o1", cypher.Integration{Adds: []realm.Node{node(realm.Fact, "Paris", unitVec(5, 6, 0.1))}})
	hoods, err := s.Neighbourhoods(ctx, cypher.NeighbourQuery{
		Space: a, Embeddings: [][]float32{unitVec(5, 6, 0.2)}, Texts: []string{`Paris? (AND) "x" OR NOT:`}, K: 1, Recent: 1, BeforeSeq: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	for _, n := range hoods[0] {
		if n.Node.Space != a {
			t.Errorf("neighbour %s of space %s", n.Node.ID, n.Node.Space)
		}
		tags[n.Node.Name] = fmt.Sprint(n.Similar, n.Recent)
		if len(n.Node.Embedding) != cyphertest.Dims {
			t.Errorf("neighbour without its embedding")
		}
	}
	if tags["Paris"] != "true true" || tags["Tokyo"] != "false true" || len(hoods[0]) != 2 {
		t.Errorf("neighbourhood tags %v", tags)
	}
}

func TestListMemories(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	var ids []string
	for i := range 5 {
		obs := fmt.Sprint("o", i)
		mustSave(t, s, space, obs)
		n := node(realm.Fact, fmt.Sprint("Fact", i), unitVec(i, i+1, 0.1))
		if i == 4 {
			n.Type = realm.Event
		}
		mustApply(t, s, space, obs, cypher.Integration{Adds: []realm.Node{n}})
		ids = append(ids, n.ID)
	}
	var got []string
	cursor := ""
	for pages := 0; pages < 10; pages++ {
		nodes, next, err := s.ListMemories(ctx, space, cypher.MemoryFilter{}, cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			got = append(got, n.ID)
		}
		if cursor = next; cursor == "" {
			break
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(ids) {
		t.Errorf("paged %v, want %v", got, ids)
	}
	events, _, err := s.ListMemories(ctx, space, cypher.MemoryFilter{Type: realm.Event}, "", 10)
	if err != nil || len(events) != 1 || events[0].ID != ids[4] {
		t.Errorf("events %v %v", events, err)
	}
	byQ, _, _ := s.ListMemories(ctx, space, cypher.MemoryFilter{Q: "FACT2"}, "", 10)
	if len(byQ) != 1 || byQ[0].ID != ids[2] {
		t.Errorf("q filter gave %v", byQ)
	}
	if _, _, err := s.ListMemories(ctx, space, cypher.MemoryFilter{}, "garbage!", 2); realm.ErrorCode(err) != realm.EInvalid {
		t.Errorf("bad cursor: %v", err)
	}
}

func TestLuceneQuery(t *testing.T) {
	for in, want := range map[string]string{
		`Paris? (AND) "x"`: `paris and x`,
		`a:b OR c/d`:       `a\:b or c d`,
		"上海的Tower":         "上 海 的 tower",
		"   ":              "",
	} {
		if got := cypher.LuceneText(in); got != want {
			t.Errorf("LuceneText(%q) = %q, want %q", in, got, want)
		}
	}
	// An unspaced text is a token per Han character: a query of the first 64.
	if got := strings.Fields(cypher.LuceneText(strings.Repeat("上海", 1000))); len(got) != 64 {
		t.Errorf("LuceneText of 2000 Han characters has %d tokens, want 64", len(got))
	}
}

func TestJob(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	mustSave(t, s, space, "o1", "o2")
	id := uuid.NewString()
	if err := s.CreateJob(ctx, space, id, []string{"o1", "o2"}); err != nil {
		t.Fatal(err)
	}
	mustApply(t, s, space, "o1", cypher.Integration{})
	j, err := s.Job(ctx, space, id)
	if err != nil {
		t.Fatal(err)
	}
	if j.Total != 2 || j.Done != 1 || j.Pending != 1 || j.Status != cypher.JobRunning {
		t.Errorf("job %+v", j)
	}
	if _, err := s.Job(ctx, cyphertest.NewSpace(t), id); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("job seen from another space: %v", err)
	}
}

// TestApplyIntegrationChanged: an integration decided on a neighbourhood that changed
// before it was applied (another observation added a near-identical memory) writes
// nothing and returns the new neighbourhood; decided on that one, it is written.
func TestApplyIntegrationChanged(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	mustSave(t, s, space, "o1", "o2")
	q := cypher.NeighbourQuery{Space: space, Embeddings: [][]float32{unitVec(5, 6, 0.2)}, Texts: []string{"Paris"}, K: 3}
	before, err := s.Neighbourhoods(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	paris := node(realm.Fact, "Paris", unitVec(5, 6, 0.1))
	mustApply(t, s, space, "o1", cypher.Integration{Adds: []realm.Node{paris}})

	dup := cypher.Integration{Adds: []realm.Node{node(realm.Fact, "Paris again", unitVec(5, 6, 0.2))}}
	applied, err := s.ApplyIntegration(ctx, space, "o2", q, before, dup)
	if err != nil {
		t.Fatal(err)
	}
	if applied.Applied || !applied.Changed || len(applied.Neighbourhoods) != 1 || len(applied.Neighbourhoods[0]) != 1 ||
		applied.Neighbourhoods[0][0].Node.ID != paris.ID {
		t.Fatalf("applied %+v, want nothing written and the new neighbourhood holding %s", applied, paris.ID)
	}
	if o, _ := s.Observation(ctx, space, "o2"); o.Status != realm.ObservationPending {
		t.Errorf("observation %s after a changed neighbourhood, want pending", o.Status)
	}
	if st, _ := s.Stats(ctx, space); st.Memories != 1 {
		t.Errorf("%d memories, want 1", st.Memories)
	}
	applied, err = s.ApplyIntegration(ctx, space, "o2", q, applied.Neighbourhoods, cypher.Integration{
		Merges: []cypher.Merge{{ID: paris.ID, Keywords: []string{"Paris"}}},
	})
	if err != nil || !applied.Applied || applied.Changed {
		t.Fatalf("applied %+v, %v; want written", applied, err)
	}
}

// TestSaveObservationsWindow: the window read with a save is the one ObservationWindow
// reads right after it, for a new space, for one observation and for a batch; nothing
// claimed, nothing read; n = 0 reads none.
func TestSaveObservationsWindow(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	save := func(n int, lease cypher.Lease, ids ...string) ([]cypher.SavedObservation, cypher.Window) {
		t.Helper()
		var obs []realm.Observation
		for _, id := range ids {
			obs = append(obs, realm.Observation{ID: id, Speaker: "Ann", Content: "content of " + id, ObservedAt: time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)})
		}
		saved, win, err := s.SaveObservationsWindow(ctx, space, "test:bow", cyphertest.Dims, obs, lease, n)
		if err != nil {
			t.Fatal(err)
		}
		return saved, win
	}
	check := func(name string, win cypher.Window, first, last int64) {
		t.Helper()
		if !win.Read || win.First != first || win.Last != last {
			t.Fatalf("%s: window read %v of seqs %d..%d, want %d..%d", name, win.Read, win.First, win.Last, first, last)
		}
		read, err := s.ObservationWindow(ctx, space, first, last, 2)
		if err != nil {
			t.Fatal(err)
		}
		want := read.Observations
		if win.Summary != read.Summary || win.Forgotten != read.Forgotten || len(win.Observations) != len(want) {
			t.Fatalf("%s: window %q %d observations, forgotten %d, want %q %d, %d", name, win.Summary, len(win.Observations), win.Forgotten, read.Summary, len(want), read.Forgotten)
		}
		for i := range want {
			if got := win.Observations[i]; got.ID != want[i].ID || got.Seq != want[i].Seq || got.Content != want[i].Content {
				t.Errorf("%s: observation %d is %s (seq %d), want %s (seq %d)", name, i, got.ID, got.Seq, want[i].ID, want[i].Seq)
			}
		}
	}
	_, win := save(2, testLease(space), "a")
	check("new space", win, 1, 1)
	save(2, testLease(space), "b", "c")
	_, win = save(2, testLease(space), "d")
	check("one", win, 4, 4)
	if len(win.Observations) != 2 || win.Observations[0].ID != "b" || win.Observations[1].ID != "c" {
		t.Errorf("one: window %+v, want b and c", win.Observations)
	}
	_, win = save(2, testLease(space), "e", "f", "g")
	check("batch", win, 5, 7)
	if _, win = save(2, cypher.Lease{Owner: "another", Until: time.Now().Add(time.Hour)}, "g"); win.Read {
		t.Errorf("nothing claimed: window read %+v", win)
	}
	if _, win = save(0, testLease(space), "h"); win.Read {
		t.Errorf("n = 0: window read %+v", win)
	}
}

// TestApplyRunMerges: the merges of a run into one memory leave what merging them one
// after the other would: the last content and embedding given, the last keywords, every
// observation once in sources, in order, and provenance to each.
func TestApplyRunMerges(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	mustSave(t, s, space, "o0", "o1", "o2", "o3")
	ann, bob := node(realm.Entity, "Ann", unitVec(0, 1, 0.1)), node(realm.Entity, "Bob", unitVec(2, 3, 0.1))
	mustApply(t, s, space, "o0", cypher.Integration{Adds: []realm.Node{ann, bob}})
	q := cypher.RunQuery{Space: space, K: 3}
	read, err := s.RunNeighbourhoods(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	ins := []cypher.ObservationIntegration{
		{ObservationID: "o1", Integration: cypher.Integration{Merges: []cypher.Merge{
			{ID: ann.ID, Content: "Ann hikes", Embedding: unitVec(4, 5, 0.1), Keywords: []string{"hikes"}},
			{ID: bob.ID, Keywords: []string{"Bob"}},
		}}},
		{ObservationID: "o2", Integration: cypher.Integration{Merges: []cypher.Merge{ // nothing but keywords, twice
			{ID: ann.ID, Keywords: []string{"Ann"}},
			{ID: ann.ID, Keywords: []string{"Ann", "trails"}},
		}}},
		{ObservationID: "o3", Integration: cypher.Integration{Merges: []cypher.Merge{{ID: ann.ID, Content: "Ann hikes on Sundays", Keywords: []string{"Sundays"}}}}},
	}
	applied, err := s.ApplyRun(ctx, q, read, ins)
	if err != nil || !applied.Applied {
		t.Fatalf("apply: %+v %v", applied, err)
	}
	got, _, err := s.GetMemory(ctx, space, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "Ann hikes on Sundays" || fmt.Sprint(got.Keywords) != "[Sundays]" || fmt.Sprint(got.Sources) != "[o0 o1 o2 o3]" {
		t.Errorf("merged memory: content %q, keywords %v, sources %v", got.Content, got.Keywords, got.Sources)
	}
	if b, _, _ := s.GetMemory(ctx, space, bob.ID); fmt.Sprint(b.Sources) != "[o0 o1]" || b.Content != bob.Content {
		t.Errorf("Bob: content %q, sources %v", b.Content, b.Sources)
	}
	nodes, err := s.MemoriesByIDs(ctx, space, []string{ann.ID, bob.ID})
	if err != nil || len(nodes) != 2 {
		t.Fatalf("read %d memories: %v", len(nodes), err)
	}
	for _, n := range nodes {
		if want := map[string][]float32{ann.ID: unitVec(4, 5, 0.1), bob.ID: bob.Embedding}[n.ID]; !cyphertest.CloseVectors(n.Embedding, want) {
			t.Errorf("%s: embedding not the last one given", n.Name)
		}
	}
	recent, err := s.RunContext(ctx, cypher.RunQuery{Space: space, RecentFrom: []string{"o1", "o2", "o3"}})
	if err != nil {
		t.Fatal(err)
	}
	from := map[string]string{}
	for _, d := range recent.Recent {
		sort.Strings(d.From)
		from[d.Node.Name] = fmt.Sprint(d.From)
	}
	if from["Ann"] != "[o1 o2 o3]" || from["Bob"] != "[o1]" {
		t.Errorf("provenance of the run's observations: %v", from)
	}
}

// A memory derived from more than realm.SourcesMax observations lists the first
// SourcesMax as its sources, a run that crosses the bound included, and stays linked to
// every one of them: the common names count it by its provenance edges.
func TestSourcesMax(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	ids := make([]string, realm.SourcesMax+2)
	for i := range ids {
		ids[i] = fmt.Sprintf("o%04d", i)
	}
	mustSave(t, s, space, ids...)
	ann := node(realm.Entity, "Ann", unitVec(0, 1, 0.1))
	mustApply(t, s, space, ids[0], cypher.Integration{Adds: []realm.Node{ann}})
	q := cypher.RunQuery{Space: space, K: 3}
	read, err := s.RunNeighbourhoods(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var ins []cypher.ObservationIntegration
	for _, id := range ids[1 : len(ids)-1] { // from 1 source to SourcesMax+1 in one run
		ins = append(ins, cypher.ObservationIntegration{ObservationID: id, Integration: cypher.Integration{Merges: []cypher.Merge{{ID: ann.ID, Keywords: []string{"Ann"}}}}})
	}
	if applied, err := s.ApplyRun(ctx, q, read, ins); err != nil || !applied.Applied {
		t.Fatalf("apply: %+v %v", applied, err)
	}
	mustApply(t, s, space, ids[len(ids)-1], cypher.Integration{Merges: []cypher.Merge{{ID: ann.ID, Content: "Ann hikes"}}})
	got, _, err := s.GetMemory(ctx, space, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "Ann hikes" || !slices.Equal(got.Sources, ids[:realm.SourcesMax]) {
		t.Errorf("content %q, %d sources from %v to %v, want the first %d", got.Content, len(got.Sources), got.Sources[:1], got.Sources[len(got.Sources)-1:], realm.SourcesMax)
	}
	names, err := s.CommonNames(ctx, space, 1, len(ids))
	if err != nil || len(names) != 1 || !slices.Equal(names[0], []string{"Ann"}) {
		t.Errorf("common names of the space, derived from every one of %d observations: %v %v", len(ids), names, err)
	}
}

// TestDeleteMemoryEmptiesSummary: deleting a memory empties the space's running summary,
// which may say what the memory said (the extraction of later messages reads it).
func TestDeleteMemoryEmptiesSummary(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	storeObservation(t, s, space)
	if err := s.PutMemories(ctx, space, []realm.Node{{ID: space + ":d", Type: realm.Fact, Content: "Ana's ex Daniel lives in Porto."}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSpaceSummary(ctx, space, "Ana; her ex Daniel lives in Porto."); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMemory(ctx, space, space+":d"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.SpaceSummary(ctx, space); err != nil || got != "" {
		t.Errorf("summary %q (%v) after the memory was deleted, want it empty", got, err)
	}
}
