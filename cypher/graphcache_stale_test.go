package cypher

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog"
	"github.com/rs/zerolog/log"

	"github.com/realm-memory/realm"
)

// chainSpace is a space of n memories, the first links+1 of them in a chain (m0 → m1 →
// …), with a Space node.
func chainSpace(t *testing.T, s *Store, n, links int) (string, []string) {
	t.Helper()
	ctx := context.Background()
	space := fullTextSpace(t, s)
	var nodes []realm.Node
	var ids []string
	for i := range n {
		v := make([]float32, 8)
		v[i%8] = 1
		id := fmt.Sprintf("%s-m%d", space, i)
		ids = append(ids, id)
		nodes = append(nodes, realm.Node{ID: id, Type: realm.Fact, Content: fmt.Sprintf("memory %d", i), Embedding: v})
	}
	var edges []realm.Edge
	for i := range links {
		edges = append(edges, realm.Edge{ID: fmt.Sprintf("%s-e%d", space, i), From: ids[i], To: ids[i+1], Predicate: realm.Precedes, Weight: 0.5})
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	if err := s.PutScaleSpace(ctx, space, "test", 8, 1, ""); err != nil {
		t.Fatal(err)
	}
	return space, ids
}

// expansion is everything expansion reads of the space (every memory's neighbours, the
// paths from m0), printed, through x.
func expansion(t *testing.T, x Expander, space string, ids []string) string {
	t.Helper()
	ctx := context.Background()
	query := make([]float32, 8)
	query[0], query[3] = 1, 1
	adj, err := x.AdjacentMany(ctx, space, 0.05, query, []Hop{{Frontier: ids, Allowed: realm.Predicates, Reasoning: query}})
	if err != nil {
		t.Fatal(err)
	}
	paths, err := x.PathsMany(ctx, space, PathScan{WSuppress: 0.05, Limit: 20, Query: query, SimShare: 0.5, WeightShare: 0.5},
		[]PathStart{{From: ids[0], Allowed: realm.Predicates, MaxHops: 3, Reasoning: query}})
	if err != nil {
		t.Fatal(err)
	}
	out := ""
	for _, a := range adj[0] {
		a.Node.AccessCount, a.Node.LastAccessedAt = 0, nil
		out += fmt.Sprintf("%s -%s %.3f %s-> %s %+v %.6f %.6f\n", a.From, a.Edge.Predicate, a.Edge.Weight, a.Edge.ID, a.Node.ID, a.Node, a.SimReasoning, a.SimQuery)
	}
	for _, p := range paths[0].Paths {
		out += fmt.Sprintf("path %v %v\n", p.IDs, p.Edges)
	}
	return out
}

// expanderNow is what expands the space as it is now, and its counts.
func expanderNow(t *testing.T, s *Store, space string) (Expander, SpaceCounts) {
	t.Helper()
	ctx := context.Background()
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	x, err := s.Expander(ctx, space, counts)
	if err != nil {
		t.Fatal(err)
	}
	return x, counts
}

// snapshotNow is the snapshot that expands the space as it is now, and its graph version;
// the test fails when the space is expanded otherwise.
func snapshotNow(t *testing.T, s *Store, space string) (*spaceGraph, string) {
	t.Helper()
	x, counts := expanderNow(t, s, space)
	g, ok := x.(*spaceGraph)
	if !ok {
		t.Fatal("the space is not expanded from a snapshot")
	}
	return g, counts.GraphVersion
}

// changedAsStatements checks that x, after a write, expands the space as the statements
// do and otherwise than was (what it expanded before the write); it returns what x expands.
func changedAsStatements(t *testing.T, s *Store, x Expander, space string, ids []string, was, write string) string {
	t.Helper()
	got, want := expansion(t, x, space, ids), expansion(t, s, space, ids)
	if got != want {
		t.Fatalf("%s: the snapshot answers\n%s\nthe statements\n%s", write, got, want)
	}
	if got == was {
		t.Fatalf("%s: expansion reads the same as before it:\n%s", write, got)
	}
	return got
}

// After every kind of write to a space's memories or memory edges, expansion reads the
// space as it now is: the write moved the space's graph version, the store reads a new
// snapshot, and that snapshot answers as the statements do, which differs from what the
// snapshot before the write answered.
func TestGraphSnapshotFollowsWrites(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	rule := func(a realm.EditAction, old, c float64) float64 {
		switch a {
		case realm.EditAdd:
			return c
		case realm.EditStrengthen:
			return old + 0.5*(1-old)
		}
		return max(0.05, old+0.5*(0-old))
	}
	step := func(a realm.EditAction, c float64) (float64, float64) {
		if a == realm.EditStrengthen {
			return 0.5, 1
		}
		return 0.5, 0
	}
	batch := func(id string, edits ...realm.EditProposal) EditBatch {
		return EditBatch{ReconsolidationID: id, TraceID: uuid.NewString(), Source: realm.EditSourceFeedback, Time: time.Now(),
			Edits: edits, NewWeight: rule, Step: step, Floor: 0.05}
	}
	space, ids := chainSpace(t, s, 5, 4)
	recon := uuid.NewString()
	writes := []struct {
		name  string
		write func() error
	}{
		{"reconsolidation adds an edge", func() error {
			_, err := s.ApplyEdits(ctx, space, batch(recon, realm.EditProposal{From: ids[0], To: ids[4], Action: realm.EditAdd, Predicate: realm.Implies, Confidence: 0.9}))
			return err
		}},
		{"reconsolidation is reverted", func() error {
			_, err := s.RevertReconsolidation(ctx, space, recon, time.Now())
			return err
		}},
		{"an edit strengthens an edge", func() error {
			_, err := s.ApplyEdits(ctx, space, batch(uuid.NewString(), realm.EditProposal{From: ids[1], To: ids[2], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1}))
			return err
		}},
		{"a memory is superseded", func() error {
			_, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
				end := Integration{Ends: []ValidityEnd{{ID: ids[3], ValidUntil: time.Now().Add(-time.Hour)}}}
				_, _, _, err := writeIntegrations(ctx, tx, space, []ObservationIntegration{{Integration: end}}, time.Now().UTC(), SpaceState{})
				return nil, err
			})
			return err
		}},
		{"a memory is deleted", func() error { return s.DeleteMemory(ctx, space, ids[2]) }},
		{"the space is erased and imported again", func() error {
			if _, err := s.DeleteSpace(ctx, space); err != nil {
				return err
			}
			imp, err := s.BeginImport(ctx, space)
			if err != nil {
				return err
			}
			var mems []ImportMemory
			for i, id := range ids {
				v := make([]float64, 8)
				v[(i+2)%8] = 1
				mems = append(mems, ImportMemory{Type: realm.Fact, Props: map[string]any{"id": id, "type": string(realm.Fact), "content": "imported", "embedding": v}})
			}
			err = imp.WriteMemories(ctx, mems)
			if err == nil {
				err = imp.WriteEdges(ctx, []ImportEdge{{From: ids[4], To: ids[0], Predicate: realm.Enables, Props: map[string]any{"id": space + "-imported", "weight": 0.7}}})
			}
			if err == nil {
				err = imp.SetSpace(ctx, map[string]any{"summary": ""}, "test", 8)
			}
			if err != nil {
				imp.Abandon(ctx)
				return err
			}
			return imp.Finish(ctx)
		}},
	}
	before, counts := expanderNow(t, s, space)
	if _, ok := before.(*spaceGraph); !ok {
		t.Fatal("the space is not expanded from a snapshot")
	}
	was := expansion(t, before, space, ids)
	for _, w := range writes {
		if err := w.write(); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		x, now := expanderNow(t, s, space)
		if now.GraphVersion == counts.GraphVersion || now.GraphVersion == "" {
			t.Fatalf("%s: the graph version is %q, was %q", w.name, now.GraphVersion, counts.GraphVersion)
		}
		if _, ok := x.(*spaceGraph); !ok {
			t.Fatalf("%s: the space is not expanded from a snapshot", w.name)
		}
		counts, was = now, changedAsStatements(t, s, x, space, ids, was, w.name)
	}
}

// A space above GraphSyncMax memories is expanded by the statements while its snapshot is
// read in the background, then from the snapshot, with the same answers.
func TestGraphSnapshotInBackground(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space, ids := chainSpace(t, s, GraphSyncMax+1, 20)
	x, counts := expanderNow(t, s, space)
	if x != Expander(s) {
		t.Fatal("a recall waited for the snapshot of a large space")
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var err error
		if x, err = s.Expander(ctx, space, counts); err != nil {
			t.Fatal(err)
		}
		if _, ok := x.(*spaceGraph); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the snapshot was not read in the background")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got, want := expansion(t, x, space, ids[:21]), expansion(t, s, space, ids[:21]); got != want {
		t.Fatalf("the snapshot answers\n%s\nthe statements\n%s", got, want)
	}
}

// A large space's snapshot read holds up no other space: while it is under way (held at
// its start by the test), a small space's recall reads that space's snapshot and expands
// from it, and the large space's recalls go on with the statements; once the read ends,
// the large space is expanded from its snapshot.
func TestGraphReadHoldsUpNoOtherSpace(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	large, _ := chainSpace(t, s, GraphSyncMax+1, 20)
	small, ids := chainSpace(t, s, 5, 4)
	var once sync.Once
	reading, release := make(chan struct{}), make(chan struct{})
	s.graphs.beforeRead = func(space string) {
		if space == large {
			once.Do(func() { close(reading) })
			<-release
		}
	}
	loaded := make(chan error, 1)
	go func() {
		_, err := s.LoadGraph(ctx, large)
		loaded <- err
	}()
	<-reading

	expander := func(space string) (Expander, error) {
		counts, err := s.SpaceCounts(ctx, space)
		if err != nil {
			return nil, err
		}
		return s.Expander(ctx, space, counts)
	}
	type answer struct {
		x   Expander
		err error
	}
	recalled := make(chan answer, 1)
	go func() {
		x, err := expander(small)
		recalled <- answer{x, err}
	}()
	var got answer
	select {
	case got = <-recalled:
	case <-time.After(time.Minute): // not a timing test: the recall would wait for ever
		close(release)
		t.Fatal("a small space's recall waited for a large space's snapshot read")
	}
	if got.err != nil {
		t.Fatal(got.err)
	}
	if _, ok := got.x.(*spaceGraph); !ok {
		t.Fatal("the small space is not expanded from a snapshot")
	}
	if a, b := expansion(t, got.x, small, ids), expansion(t, s, small, ids); a != b {
		t.Fatalf("the snapshot answers\n%s\nthe statements\n%s", a, b)
	}
	if x, err := expander(large); err != nil || x != Expander(s) {
		t.Fatalf("while its snapshot is read, the large space is expanded by %T (%v), not the statements", x, err)
	}

	close(release)
	if err := <-loaded; err != nil {
		t.Fatal(err)
	}
	if x, err := expander(large); err != nil {
		t.Fatal(err)
	} else if _, ok := x.(*spaceGraph); !ok {
		t.Fatal("once read, the large space is not expanded from its snapshot")
	}
}

// A snapshot follows this store's reconsolidations and their reverts without being read
// again: after each, the space's new graph version is served by the same snapshot, which
// answers as the statements do, and differently from before it. Another store's edit
// (another process) leaves it behind: a new snapshot is read.
func TestGraphSnapshotFollowsOwnEdits(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space, ids := chainSpace(t, s, 6, 4)
	rule := func(a realm.EditAction, old, c float64) float64 {
		if a == realm.EditAdd {
			return c
		}
		return old + 0.5*(map[realm.EditAction]float64{realm.EditStrengthen: 1}[a]-old)
	}
	step := func(a realm.EditAction, c float64) (float64, float64) {
		return 0.5, map[realm.EditAction]float64{realm.EditStrengthen: 1}[a]
	}
	edit := func(s *Store, recon string, edits ...realm.EditProposal) {
		t.Helper()
		b := EditBatch{ReconsolidationID: recon, TraceID: uuid.NewString(), Source: realm.EditSourceFeedback, Time: time.Now(),
			Edits: edits, NewWeight: rule, Step: step, Floor: 0.05}
		if done, err := s.ApplyEdits(ctx, space, b); err != nil || len(done) != len(edits) {
			t.Fatalf("%d of %d edits applied: %v", len(done), len(edits), err)
		}
	}
	current := func() (*spaceGraph, string) { return snapshotNow(t, s, space) }
	first, version := current()
	was := expansion(t, first, space, ids)
	added := uuid.NewString()
	steps := []struct {
		name  string
		write func()
	}{
		{"edges added, one to a memory no edge reached", func() {
			edit(s, added, realm.EditProposal{From: ids[0], To: ids[5], Action: realm.EditAdd, Predicate: realm.Implies, Confidence: 0.9},
				realm.EditProposal{From: ids[2], To: ids[0], Action: realm.EditAdd, Predicate: realm.Enables, Confidence: 0.3})
		}},
		{"edges strengthened and weakened", func() {
			edit(s, uuid.NewString(), realm.EditProposal{From: ids[1], To: ids[2], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1},
				realm.EditProposal{From: ids[0], To: ids[1], Action: realm.EditWeaken, Predicate: realm.Precedes, Confidence: 1})
		}},
		{"the adds reverted", func() {
			if _, err := s.RevertReconsolidation(ctx, space, added, time.Now()); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, st := range steps {
		st.write()
		g, now := current()
		if now == version {
			t.Fatalf("%s: the graph version did not move", st.name)
		}
		if g != first {
			t.Fatalf("%s: the snapshot was read again instead of following the write", st.name)
		}
		version, was = now, changedAsStatements(t, s, g, space, ids, was, st.name)
	}

	other := testStore(t, Config{})
	edit(other, uuid.NewString(), realm.EditProposal{From: ids[3], To: ids[4], Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1})
	g, _ := current()
	if g == first {
		t.Fatal("another store's edit was not seen: the snapshot was kept")
	}
	if got, want := expansion(t, g, space, ids), expansion(t, s, space, ids); got != want {
		t.Fatalf("after another store's edit, the snapshot answers\n%s\nthe statements\n%s", got, want)
	}
}

// WarmGraphs reads the snapshots of the spaces it is given in the background, past one it
// cannot read (no such space), and returns at once.
func TestWarmGraphs(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space, ids := chainSpace(t, s, 5, 4)
	if ok, err := s.GraphCurrent(ctx, space); err != nil || ok {
		t.Fatalf("a snapshot is held before any read (%v)", err)
	}
	s.WarmGraphs([]string{space + "-none", space})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		ok, err := s.GraphCurrent(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the space's snapshot was not read in the background")
		}
		time.Sleep(50 * time.Millisecond)
	}
	x, _ := expanderNow(t, s, space)
	if got, want := expansion(t, x, space, ids), expansion(t, s, space, ids); got != want {
		t.Fatalf("the warmed snapshot answers\n%s\nthe statements\n%s", got, want)
	}
}

// A snapshot read in pages (here of 4 memories, the chain's edges crossing them) holds
// every memory and edge and answers as the statements do.
func TestGraphSnapshotInPages(t *testing.T) {
	s := testStore(t, Config{})
	s.graphs.page = 4
	ctx := context.Background()
	space, ids := chainSpace(t, s, 23, 22)
	st, err := s.LoadGraph(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	if st.Memories != 23 || st.Edges != 22 {
		t.Fatalf("the snapshot holds %d memories and %d edges, want 23 and 22", st.Memories, st.Edges)
	}
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	x := s.graphs.get(space, counts.GraphVersion)
	if x == nil {
		t.Fatal("the snapshot read in pages is not kept")
	}
	if got, want := expansion(t, x, space, ids), expansion(t, s, space, ids); got != want {
		t.Fatalf("the snapshot answers\n%s\nthe statements\n%s", got, want)
	}
}

// logLinesOf are the lines of a JSON log about the space, decoded.
func logLinesOf(t *testing.T, logged []byte, space string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range bytes.Split(logged, []byte("\n")) {
		var m map[string]any
		if len(line) == 0 {
			continue
		}
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["space"] == space {
			out = append(out, m)
		}
	}
	return out
}

// A recall of a large space that expands by the statements, its snapshot being read or
// stale after another process's write, is counted by reason and logged at info level: once
// while the read is under way, once while the snapshot is stale and its next read waits
// for the reload pause, saying how long (the second recall of each is counted, not logged).
func TestRecallWithoutSnapshotLogged(t *testing.T) {
	var logs bytes.Buffer
	was := log.Logger
	log.Logger = zerolog.New(zerolog.SyncWriter(&logs)).Level(zerolog.InfoLevel)
	defer func() { log.Logger = was }()
	s := testStore(t, Config{})
	ctx := context.Background()
	space, _ := chainSpace(t, s, GraphSyncMax+1, 20)
	reading, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	s.graphs.beforeRead = func(string) {
		once.Do(func() { close(reading) })
		<-release
	}
	for range 2 {
		if x, _ := expanderNow(t, s, space); x != Expander(s) {
			t.Fatal("a recall waited for the snapshot of a large space")
		}
	}
	<-reading
	// Held a while, the read makes a reload pause longer than the rest of the test.
	time.Sleep(2 * time.Second)
	close(release)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if x, _ := expanderNow(t, s, space); x != Expander(s) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the snapshot was not read in the background")
		}
		time.Sleep(100 * time.Millisecond)
	}
	other := testStore(t, Config{})
	late := realm.Node{ID: space + "-late", Type: realm.Fact, Content: "written by another process", Embedding: []float32{1, 0, 0, 0, 0, 0, 0, 0}}
	if err := other.PutMemories(ctx, space, []realm.Node{late}, nil); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if x, _ := expanderNow(t, s, space); x != Expander(s) {
			t.Fatal("a stale snapshot expanded the space")
		}
	}

	counted := s.RecallsWithoutSnapshot()
	if counted[SnapshotPaused] != 2 || counted[SnapshotFollowing] != 0 || counted[SnapshotReading] < 2 {
		t.Errorf("recalls without the snapshot %v; want 2 or more reading (those polled), 2 paused", counted)
	}
	log.Logger = was // before the lines are read: a background read's failure would be logged
	lines := logLinesOf(t, logs.Bytes(), space)
	if len(lines) != 2 {
		t.Fatalf("%d log lines about the space, want 2: %v", len(lines), lines)
	}
	for i, want := range []string{SnapshotReading, SnapshotPaused} {
		if lines[i]["level"] != "info" || lines[i]["reason"] != want {
			t.Errorf("line %d: %v; want at info, reason %s", i, lines[i], want)
		}
	}
	if next, _ := lines[0]["next_read_in"].(float64); next != 0 {
		t.Errorf("while the snapshot is read, the next read is in %v ms, want 0", next)
	}
	if next, _ := lines[1]["next_read_in"].(float64); next <= 0 {
		t.Errorf("paused, the next read is in %v ms, want some time ahead", lines[1]["next_read_in"])
	}
}

// TestGraphCachePrunesLapsed: the per-space log silences and reload pauses that have
// lapsed are forgotten when the next ones are set, so a server that serves many spaces
// over time does not hold an entry for each of them for ever.
func TestGraphCachePrunesLapsed(t *testing.T) {
	var c graphCache
	c.withoutSnapshot("old", SnapshotPaused, 0)
	c.notBefore = map[string]time.Time{"old": time.Now().Add(-time.Second), "paused": time.Now().Add(time.Hour)}
	for miss := range c.quietUntil {
		c.quietUntil[miss] = time.Now().Add(-time.Second) // the minute has passed
	}
	c.withoutSnapshot("new", SnapshotPaused, 0)
	if _, ok := c.quietUntil[snapshotMiss{"old", SnapshotPaused}]; ok || len(c.quietUntil) != 1 {
		t.Errorf("log silences %v, want only the new space's", c.quietUntil)
	}
	if _, ok := c.notBefore["old"]; ok || len(c.notBefore) != 1 {
		t.Errorf("reload pauses %v, want only the one not lapsed", c.notBefore)
	}
}
