package cypher

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// dumpGraph prints everything of a snapshot that expansion reads, by memory id and edge
// key (not by index, which differs between a snapshot read whole and one that followed
// writes): each memory's properties, embedding, degree, adjacency list in order and
// heaviest-first order, and each edge an adjacency list holds.
func dumpGraph(g *spaceGraph) string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	ids := make([]string, 0, len(g.at))
	for id := range g.at {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var b strings.Builder
	asJSON := func(v any) string { // the times a pointer holds, not the pointer
		out, _ := json.Marshal(v)
		return string(out)
	}
	edge := func(e int32) string {
		x := g.edges[e]
		return fmt.Sprintf("%s[%s %s→%s %s]", x.key, x.relType, g.nodes[x.start].node.ID, g.nodes[x.end].node.ID, asJSON(x.edge))
	}
	for _, id := range ids {
		n := g.nodes[g.at[id]]
		fmt.Fprintf(&b, "%s: %s emb %v left out %v degree %d\n", id, asJSON(n.node), n.emb, n.leftOut, n.degree)
		for _, e := range n.adjacent {
			fmt.Fprintf(&b, "  adjacent %s\n", edge(e))
		}
		for _, e := range n.heavy {
			fmt.Fprintf(&b, "  heavy %s\n", g.edges[e].key)
		}
	}
	return b.String()
}

// A snapshot follows this store's ingestion writes (ApplyRun, ApplyIntegration) and
// deletions of memories without being read again: after each — new memories with edges
// to old ones and between them, a merge with new content and embedding, an edge's new
// weight, an edge deleted, a memory superseded, an edge between two old memories, a merge
// and an end that write no edge, a memory deleted, old or new — the same snapshot serves
// the space's new graph version and holds what a snapshot read whole by another store holds,
// memory by memory and edge by edge, and expands as the statements do. Another store's
// ingestion is not followed: the snapshot is read again.
func TestGraphSnapshotFollowsIngestion(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space, ids := chainSpace(t, s, 6, 4)
	savePending(t, s, space, 7)
	vec := func(i int) []float32 {
		v := make([]float32, 8)
		v[i%8], v[(i+3)%8] = 1, 0.5
		return v
	}
	newNode := func(id string, i int) realm.Node {
		now := time.Now().UTC()
		return realm.Node{ID: id, Type: realm.Fact, Name: id, Content: "new memory " + id, Embedding: vec(i), CreatedAt: now, UpdatedAt: now}
	}
	n1, n2, n3 := space+"-n1", space+"-n2", space+"-n3"
	run := func(ins ...ObservationIntegration) {
		t.Helper()
		q := RunQuery{Space: space}
		read, err := s.RunNeighbourhoods(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if applied, err := s.ApplyRun(ctx, q, read, ins); err != nil || !applied.Applied {
			t.Fatalf("apply: %+v %v", applied, err)
		}
	}
	current := func() (*spaceGraph, string) { return snapshotNow(t, s, space) }
	first, version := current()
	all := ids
	was := expansion(t, first, space, all)
	steps := []struct {
		name  string
		added []string
		write func()
	}{
		{"a run adds memories with edges to old ones, between them, and a symmetric one", []string{n1, n2}, func() {
			run(ObservationIntegration{ObservationID: "o0", Integration: Integration{
				Adds: []realm.Node{newNode(n1, 1), newNode(n2, 2)},
				Edges: []EdgeWrite{
					{Op: EdgeAdd, From: n1, To: ids[0], Predicate: realm.Implies, Weight: 0.8, Confidence: 0.9, Description: "n1 implies m0"},
					{Op: EdgeAdd, From: ids[2], To: n2, Predicate: realm.Enables, Weight: 0.6, Confidence: 0.9},
					{Op: EdgeAdd, From: n1, To: n2, Predicate: realm.Correlates, Weight: 0.7, Confidence: 0.9},
				},
			}}, ObservationIntegration{ObservationID: "o1", Integration: Integration{ // a second observation of the run merges into n1
				Merges: []Merge{{ID: n1, Content: "n1, merged", Keywords: []string{"merged"}}},
			}})
		}},
		{"a merge with new content and embedding, an edge's new weight, an edge deleted", nil, func() {
			run(ObservationIntegration{ObservationID: "o2", Integration: Integration{
				Merges: []Merge{{ID: ids[1], Content: "m1, merged", Embedding: vec(5), Keywords: []string{"m1"}}},
				Edges: []EdgeWrite{
					{Op: EdgeModify, From: ids[1], To: ids[2], Predicate: realm.Precedes, Weight: 0.95, Confidence: 1, Description: "stronger"},
					{Op: EdgeDelete, From: ids[3], To: ids[4], Predicate: realm.Precedes},
				},
			}})
		}},
		{"a memory superseded, an edge between old memories", nil, func() {
			run(ObservationIntegration{ObservationID: "o3", Integration: Integration{
				Ends:  []ValidityEnd{{ID: ids[3], ValidUntil: time.Now().Add(-time.Hour).UTC()}},
				Edges: []EdgeWrite{{Op: EdgeAdd, From: ids[5], To: ids[3], Predicate: realm.Supersedes, Weight: 0.9, Confidence: 1}},
			}})
		}},
		{"one observation's integration adds a memory", []string{n3}, func() {
			in := Integration{Adds: []realm.Node{newNode(n3, 3)}, Edges: []EdgeWrite{{Op: EdgeAdd, From: n3, To: ids[5], Predicate: realm.Contextualizes, Weight: 0.5, Confidence: 1}}}
			if applied, err := s.ApplyIntegration(ctx, space, "o4", NeighbourQuery{}, nil, in); err != nil || !applied.Applied {
				t.Fatalf("apply: %+v %v", applied, err)
			}
		}},
		{"merges and an end that write no edge (their edges are not read again)", nil, func() {
			run(ObservationIntegration{ObservationID: "o5", Integration: Integration{
				Merges: []Merge{{ID: ids[0], Content: "m0, merged", Embedding: vec(6), Keywords: []string{"m0"}}},
				Ends:   []ValidityEnd{{ID: ids[4], ValidUntil: time.Now().Add(-time.Hour).UTC()}},
			}})
		}},
		{"a memory with edges is deleted", nil, func() {
			if err := s.DeleteMemory(ctx, space, ids[2]); err != nil {
				t.Fatal(err)
			}
		}},
		{"a new memory is deleted", nil, func() {
			if err := s.DeleteMemory(ctx, space, n1); err != nil {
				t.Fatal(err)
			}
		}},
	}
	// Recalls meanwhile (go test -race): they expand from whatever serves the version they
	// read, and must not fail.
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		query := vec(0)
		for {
			select {
			case <-done:
				return
			default:
			}
			counts, err := s.SpaceCounts(ctx, space)
			if err == nil {
				var x Expander
				if x, err = s.Expander(ctx, space, counts); err == nil {
					_, err = x.AdjacentMany(ctx, space, 0.05, query, []Hop{{Frontier: ids, Allowed: realm.Predicates, Reasoning: query}})
				}
			}
			if err != nil {
				t.Errorf("a recall meanwhile: %v", err)
				return
			}
		}
	}()
	defer func() { close(done); <-stopped }()
	other := testStore(t, Config{})
	for _, st := range steps {
		st.write()
		all = append(all, st.added...)
		g, now := current()
		if now == version {
			t.Fatalf("%s: the graph version did not move", st.name)
		}
		if g != first {
			t.Fatalf("%s: the snapshot was read again instead of following the write", st.name)
		}
		if _, err := other.LoadGraph(ctx, space); err != nil {
			t.Fatal(err)
		}
		fresh := other.graphs.get(space, now)
		if fresh == nil {
			t.Fatalf("%s: no snapshot read whole", st.name)
		}
		if got, want := dumpGraph(g), dumpGraph(fresh); got != want {
			t.Fatalf("%s: the snapshot that followed holds\n%s\nthe one read whole\n%s", st.name, got, want)
		}
		if got, want := expansion(t, g, space, all), expansion(t, fresh, space, all); got != want {
			t.Fatalf("%s: the snapshot that followed expands\n%s\nthe one read whole\n%s", st.name, got, want)
		}
		version, was = now, changedAsStatements(t, s, g, space, all, was, st.name)
	}

	// Another store's ingestion (another process) is not followed: the snapshot is read again.
	q := RunQuery{Space: space}
	read, err := other.RunNeighbourhoods(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	in := ObservationIntegration{ObservationID: "o6", Integration: Integration{Merges: []Merge{{ID: ids[5], Content: "m5, merged elsewhere", Keywords: []string{}}}}}
	if applied, err := other.ApplyRun(ctx, q, read, []ObservationIntegration{in}); err != nil || !applied.Applied {
		t.Fatalf("apply by the other store: %+v %v", applied, err)
	}
	g, _ := current()
	if g == first {
		t.Fatal("another store's ingestion was not seen: the snapshot was kept")
	}
	changedAsStatements(t, s, g, space, all, expansion(t, first, space, all), "another store's ingestion")
}

// An ingestion is followed only when a recall expanded from the snapshot since it was read
// or last followed one: of two ingestions without a recall between them (a bulk
// ingestion) the first is followed and the second leaves the snapshot to be read again.
func TestGraphSnapshotFollowsIngestionAfterARecall(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space, ids := chainSpace(t, s, 5, 4)
	savePending(t, s, space, 6)
	merge := func(obs, id string) {
		t.Helper()
		q := RunQuery{Space: space}
		read, err := s.RunNeighbourhoods(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		in := ObservationIntegration{ObservationID: obs, Integration: Integration{Merges: []Merge{{ID: id, Content: id + ", merged", Keywords: []string{}}}}}
		if applied, err := s.ApplyRun(ctx, q, read, []ObservationIntegration{in}); err != nil || !applied.Applied {
			t.Fatalf("apply: %+v %v", applied, err)
		}
	}
	first, _ := snapshotNow(t, s, space) // a recall expands from it
	merge("o0", ids[0])
	if g, _ := snapshotNow(t, s, space); g != first {
		t.Fatal("an ingestion after a recall was not followed")
	}
	merge("o1", ids[1])
	merge("o2", ids[2])
	g, version := snapshotNow(t, s, space)
	if g == first || first.version == version {
		t.Fatal("the second of two ingestions without a recall between them was followed")
	}
	changedAsStatements(t, s, g, space, ids, expansion(t, first, space, ids), "two ingestions")
	// A recall that expands nothing (Recalling only) is a recall too: the next ingestion
	// is followed; the one after it is not.
	merge("o3", ids[3])
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	s.Recalling(space, counts)
	merge("o4", ids[4])
	if current, err := s.GraphCurrent(ctx, space); err != nil || !current {
		t.Fatalf("an ingestion after a recall that expanded nothing was not followed (%v)", err)
	}
	merge("o5", ids[0])
	if current, err := s.GraphCurrent(ctx, space); err != nil || current {
		t.Fatalf("an ingestion after no recall was followed (%v)", err)
	}
}

// savePending stores n pending observations o0, o1, … in space, leased to this test.
func savePending(t *testing.T, s *Store, space string, n int) {
	t.Helper()
	var obs []realm.Observation
	for i := range n {
		obs = append(obs, realm.Observation{ID: fmt.Sprint("o", i), Speaker: "Ann", Content: "said", ObservedAt: time.Date(2023, 5, 8, 13, i, 0, 0, time.UTC)})
	}
	saveObservations(t, s, space, obs)
}

// saveObservations stores obs in space, pending, leased as savePending leases them.
func saveObservations(t *testing.T, s *Store, space string, obs []realm.Observation) {
	t.Helper()
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := s.SaveObservations(context.Background(), space, "test", 8, obs, lease); err != nil {
		t.Fatal(err)
	}
}

// TestGraphSnapshotFollowsSources: the sources of a memory the snapshot leaves them out of
// (more than InlineSources), read once through the snapshot, follow the merges into it
// (each observation appended once, in order): the next reads take them from the snapshot,
// without a statement, equal to what the store holds.
func TestGraphSnapshotFollowsSources(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space, ids := chainSpace(t, s, 5, 4)
	hub := space + "-hub"
	savePending(t, s, space, InlineSources+10) // o0, o1 merge into the hub, which derives from the others
	var sources []string
	for i := range InlineSources + 8 {
		sources = append(sources, fmt.Sprint("o", i+2))
	}
	v := make([]float32, 8)
	v[0] = 1
	if err := s.PutMemories(ctx, space, []realm.Node{{ID: hub, Type: realm.Entity, Name: "Hub", Sources: sources, Embedding: v}},
		[]realm.Edge{{ID: space + "-hub-e", From: ids[0], To: hub, Predicate: realm.Precedes, Weight: 0.5}}); err != nil {
		t.Fatal(err)
	}
	derive := newQuery("test_derived", `MATCH (m:Memory {id: $id}) UNWIND m.sources AS sid
MATCH (o:Observation {space: m.space, id: sid}) CREATE (m)-[:DERIVED_FROM]->(o)`)
	if _, err := s.write(ctx, derive, map[string]any{"id": hub}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutScaleSpace(ctx, space, "test", 8, 1, ""); err != nil {
		t.Fatal(err)
	}
	g, _ := snapshotNow(t, s, space)
	if !g.nodes[g.at[hub]].leftOut {
		t.Fatal("the snapshot holds the hub's sources")
	}
	check := func(what string, statements int) {
		t.Helper()
		logged, log := WithStatementLog(ctx)
		got, err := g.MemorySources(logged, space, []string{hub})
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.MemorySources(ctx, space, []string{hub})
		if err != nil || !slices.Equal(got[hub], want[hub]) {
			t.Errorf("%s: sources %v, stored %v (%v)", what, got[hub], want[hub], err)
		}
		if n := len(log.Statements); n != statements {
			t.Errorf("%s: %d statements, want %d", what, n, statements)
		}
	}
	check("first read", 1)
	check("held", 0)
	held, _ := g.MemorySources(ctx, space, []string{hub})
	for _, obs := range []string{"o0", "o1"} {
		q := RunQuery{Space: space}
		read, err := s.RunNeighbourhoods(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		in := ObservationIntegration{ObservationID: obs, Integration: Integration{Merges: []Merge{{ID: hub, Content: "Hub, merged", Keywords: []string{}}}}}
		if applied, err := s.ApplyRun(ctx, q, read, []ObservationIntegration{in}); err != nil || !applied.Applied {
			t.Fatalf("apply: %+v %v", applied, err)
		}
		if now, _ := snapshotNow(t, s, space); now != g {
			t.Fatalf("%s: the merge was not followed", obs)
		}
		check("after merging "+obs, 0)
	}
	if !slices.Equal(held[hub], sources) {
		t.Errorf("the sources returned before the merges changed: %v", held[hub])
	}
}
