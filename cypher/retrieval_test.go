package cypher_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

func TestEscapeLucene(t *testing.T) {
	tests := []struct{ in, want string }{
		{"berlin", "berlin"},
		{`c++ (x) a:b "q" \ / * ? ~ ^ ! { } [ ] | &`, `c\+\+ \(x\) a\:b \"q\" \\ \/ \* \? \~ \^ \! \{ \} \[ \] \| \&`},
		{"cats AND dogs OR NOT birds", "cats and dogs or not birds"},
		{"  spaced   out ", "spaced out"},
	}
	for _, tt := range tests {
		if got := cypher.EscapeLucene(tt.in); got != tt.want {
			t.Errorf("EscapeLucene(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPutMemories(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	a, b := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, a); s.RemoveFixture(ctx, b) })
	node := func(space, id string) realm.Node {
		v := make([]float32, cyphertest.Dims)
		v[0] = 1
		return realm.Node{ID: space + id, Type: realm.Fact, Content: "x", Embedding: v}
	}
	if err := s.PutMemories(ctx, a, []realm.Node{node(a, "1"), node(a, "2")}, []realm.Edge{
		{ID: a + "e", From: a + "1", To: a + "2", Predicate: realm.Correlates, Weight: 0.5},
	}); err != nil {
		t.Fatal(err)
	}
	t.Run("SymmetricReverse", func(t *testing.T) {
		edges, err := s.InducedEdges(ctx, a, []string{a + "1", a + "2"})
		if err != nil || len(edges) != 2 {
			t.Fatalf("edges %v, %v; want the edge and its reverse", edges, err)
		}
	})
	t.Run("ErrOtherSpaceNode", func(t *testing.T) {
		if err := s.PutMemories(ctx, b, []realm.Node{{ID: b + "1", Space: a, Type: realm.Fact}}, nil); realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
	})
	t.Run("ErrEdgeAcrossSpaces", func(t *testing.T) {
		if err := s.PutMemories(ctx, b, []realm.Node{node(b, "1")}, []realm.Edge{
			{ID: b + "e", From: b + "1", To: a + "1", Predicate: realm.Implies, Weight: 0.5},
		}); err == nil {
			t.Error("an edge into another space was written")
		}
	})
	t.Run("ReadsFilterBySpace", func(t *testing.T) {
		nodes, err := s.MemoriesByIDs(ctx, b, []string{a + "1"})
		if err != nil || len(nodes) != 0 {
			t.Errorf("space b read %v of space a (%v)", nodes, err)
		}
		adj, err := s.Adjacent(ctx, b, []string{a + "1"}, nil, realm.Predicates, 0, cypher.ExpandScoring{}, cypher.BeamCut{})
		if err != nil || len(adj) != 0 {
			t.Errorf("space b expanded %v of space a (%v)", adj, err)
		}
		if _, err := s.Trace(ctx, b, "no-such-trace"); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("got %v, want not found", err)
		}
	})
}

// CommonNames: an entity named in at least the share and the minimum of the space's
// observations is common; one named rarely, or an event, is not; other spaces don't count.
func TestCommonNames(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space, other := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space); s.RemoveFixture(ctx, other) })
	var obs []realm.Observation
	var all []string
	for i := range 40 {
		id := fmt.Sprintf("o%d", i)
		obs = append(obs, realm.Observation{ID: id, Content: "turn", ObservedAt: time.Now()})
		all = append(all, id)
	}
	lease := cypher.Lease{Owner: "t", Until: time.Now().Add(time.Minute)}
	if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, obs, lease); err != nil {
		t.Fatal(err)
	}
	nodes := []realm.Node{
		{ID: space + "ana", Type: realm.Entity, Name: "Ana", Aliases: []string{"Annie"}, Sources: all[:30]},
		{ID: space + "bo", Type: realm.Entity, Name: "Bo", Sources: all[:3]},
		{ID: space + "ev", Type: realm.Event, Name: "Event", Sources: all},
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		space string
		share float64
		min   int
		want  [][]string
	}{
		{"OK", space, 0.5, 20, [][]string{{"Ana", "Annie"}}},
		{"ShareTooHigh", space, 0.8, 20, nil},
		{"MinTooHigh", space, 0.1, 31, nil},
		{"OtherSpace", other, 0.1, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.CommonNames(ctx, tt.space, tt.share, tt.min)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// Adjacent with a beam cut returns what a beam needs: the best neighbours by edge score
// are the same as from all neighbours, and far fewer rows come back from a memory of many
// edges; visited memories are left out either way. The similarities come from Neo4j, as
// Go computes them, and no embedding is sent.
func TestAdjacentBeamCut(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	vec := func(i int) []float32 {
		v := make([]float32, cyphertest.Dims)
		v[0], v[1+i%50] = 1, float32(i%7)/3
		return v
	}
	nodes := []realm.Node{{ID: space + "hub", Type: realm.Entity, Name: "Hub", Content: "hub", Embedding: vec(0)}}
	var edges []realm.Edge
	for i := range 120 {
		id := fmt.Sprintf("%sn%d", space, i)
		nodes = append(nodes, realm.Node{ID: id, Type: realm.Event, Content: "n", Embedding: vec(i)})
		edges = append(edges, realm.Edge{ID: fmt.Sprintf("%se%d", space, i), From: id, To: space + "hub",
			Predicate: realm.Instantiates, Weight: 0.1 + float64(i%9)/10})
		if i%4 == 0 { // a second, weaker edge to some
			edges = append(edges, realm.Edge{ID: fmt.Sprintf("%sf%d", space, i), From: space + "hub", To: id,
				Predicate: realm.Correlates, Weight: 0.15})
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	reasoning, query := vec(3), vec(5)
	sc := cypher.ExpandScoring{Query: query, Reasoning: reasoning}
	top := func(adj []cypher.Adjacent) []string {
		best := map[string]float64{}
		for _, a := range adj {
			if sc := 0.6*a.SimReasoning + 0.4*a.Edge.Weight; sc > best[a.Node.ID] {
				best[a.Node.ID] = sc
			}
		}
		ids := make([]string, 0, len(best))
		for id := range best {
			ids = append(ids, id)
		}
		slices.SortFunc(ids, func(a, b string) int {
			if best[a] != best[b] {
				if best[a] > best[b] {
					return -1
				}
				return 1
			}
			return strings.Compare(a, b)
		})
		return ids[:min(8, len(ids))]
	}
	visited := []string{space + "hub", space + "n7"}
	all, err := s.Adjacent(ctx, space, []string{space + "hub"}, visited, realm.Predicates, 0.1, sc, cypher.BeamCut{})
	if err != nil {
		t.Fatal(err)
	}
	cut, err := s.Adjacent(ctx, space, []string{space + "hub"}, visited, realm.Predicates, 0.1, sc,
		cypher.BeamCut{Beam: 8, Margin: 1e-6, SimShare: 0.6, WeightShare: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 179 || len(cut) >= len(all)/2 {
		t.Errorf("%d rows without the cut (want 179: 120 + 30 correlates both ways, but the visited n7), %d with it", len(all), len(cut))
	}
	if a, c := top(all), top(cut); !slices.Equal(a, c) {
		t.Errorf("beam without the cut %v, with it %v", a, c)
	}
	byID := map[string]realm.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	for _, a := range all {
		if a.Node.ID == space+"n7" || len(a.Node.Embedding) != 0 {
			t.Fatalf("row %s: a visited memory, or an embedding sent", a.Node.ID)
		}
		emb := byID[a.Node.ID].Embedding
		if r, q := max(0, realm.Cosine(reasoning, emb)), max(0, realm.Cosine(query, emb)); math.Abs(a.SimReasoning-r) > 1e-6 || math.Abs(a.SimQuery-q) > 1e-6 {
			t.Fatalf("row %s: similarities %g, %g from Neo4j, %g, %g in Go", a.Node.ID, a.SimReasoning, a.SimQuery, r, q)
		}
	}
}

// Of a hub (more than cypher.PathMaxViaDegree memory edges) Adjacent scores only the
// cypher.HubBranch heaviest edges; a memory exactly at the bound is read whole.
func TestAdjacentHub(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	nodes := []realm.Node{{ID: space + "hub", Type: realm.Entity, Name: "Hub"}, {ID: space + "big", Type: realm.Entity, Name: "Big"}}
	var edges []realm.Edge
	for i := range cypher.PathMaxViaDegree + 1 {
		id := fmt.Sprintf("%sn%d", space, i)
		nodes = append(nodes, realm.Node{ID: id, Type: realm.Event, Content: "n"})
		w := 0.2 + float64(i%5)/10
		if i%7 == 0 {
			w = 0.9 // 143 of them, more than HubBranch
		}
		edges = append(edges, realm.Edge{ID: fmt.Sprintf("%se%d", space, i), From: id, To: space + "hub", Predicate: realm.Instantiates, Weight: w})
		if i < cypher.PathMaxViaDegree {
			edges = append(edges, realm.Edge{ID: fmt.Sprintf("%sb%d", space, i), From: id, To: space + "big", Predicate: realm.Instantiates, Weight: w})
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	hub, err := s.Adjacent(ctx, space, []string{space + "hub"}, nil, realm.Predicates, 0.1, cypher.ExpandScoring{}, cypher.BeamCut{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hub) != cypher.HubBranch {
		t.Errorf("the hub: %d neighbours scored, want %d", len(hub), cypher.HubBranch)
	}
	for _, a := range hub {
		if a.Edge.Weight != 0.9 {
			t.Fatalf("the hub: neighbour %s over an edge of %g, not among the heaviest", a.Node.ID, a.Edge.Weight)
		}
	}
	big, err := s.Adjacent(ctx, space, []string{space + "big"}, nil, realm.Predicates, 0.1, cypher.ExpandScoring{}, cypher.BeamCut{})
	if err != nil || len(big) != cypher.PathMaxViaDegree {
		t.Errorf("a memory at the bound: %d neighbours, want all %d (%v)", len(big), cypher.PathMaxViaDegree, err)
	}
}

// A hop's HubDegree lowers the bound above which a memory is a hub: a memory of
// HubBranch + 20 edges is read whole by default, and by a hop whose HubDegree is below its
// degree only its HubBranch heaviest are scored; a hop of the same request without the
// setting, in the same statement, still reads it whole.
func TestAdjacentHubDegree(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	n := cypher.HubBranch + 20
	nodes := []realm.Node{{ID: space + "hub", Type: realm.Entity, Name: "Hub"}}
	var edges []realm.Edge
	for i := range n {
		id := fmt.Sprintf("%sn%d", space, i)
		nodes = append(nodes, realm.Node{ID: id, Type: realm.Event, Content: "n"})
		w := 0.9
		if i%6 == 0 {
			w = 0.3 // 20 of them, the lightest
		}
		edges = append(edges, realm.Edge{ID: fmt.Sprintf("%se%d", space, i), From: id, To: space + "hub", Predicate: realm.Instantiates, Weight: w})
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	hop := cypher.Hop{Frontier: []string{space + "hub"}, Visited: []string{space + "hub"}, Allowed: realm.Predicates}
	lowered := hop
	lowered.HubDegree = cypher.HubBranch
	adj, err := s.AdjacentMany(ctx, space, 0.1, nil, []cypher.Hop{hop, lowered})
	if err != nil {
		t.Fatal(err)
	}
	if len(adj[0]) != n {
		t.Errorf("default bound: %d neighbours, want all %d", len(adj[0]), n)
	}
	if len(adj[1]) != cypher.HubBranch {
		t.Errorf("hub_degree %d: %d neighbours scored, want %d", lowered.HubDegree, len(adj[1]), cypher.HubBranch)
	}
	for _, a := range adj[1] {
		if a.Edge.Weight != 0.9 {
			t.Fatalf("hub_degree %d: neighbour %s over an edge of %g, not among the heaviest", lowered.HubDegree, a.Node.ID, a.Edge.Weight)
		}
	}
}

// AdjacentMany answers several hops in one statement, each as Adjacent alone: its own
// frontier, visited memories, predicates, reasoning and cut; a hop without a frontier or a
// predicate reaches nothing.
func TestAdjacentMany(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	vec := func(i int) []float32 {
		v := make([]float32, cyphertest.Dims)
		v[0], v[1+i%40] = 1, float32(i%5)/2
		return v
	}
	id := func(i int) string { return fmt.Sprintf("%sn%d", space, i) }
	var nodes []realm.Node
	var edges []realm.Edge
	for i := range 60 {
		nodes = append(nodes, realm.Node{ID: id(i), Type: realm.Event, Content: "n", Embedding: vec(i)})
		if i > 0 {
			pred := realm.Correlates
			if i%3 == 0 {
				pred = realm.Precedes
			}
			edges = append(edges, realm.Edge{ID: fmt.Sprintf("%se%d", space, i), From: id(i / 4), To: id(i), Predicate: pred, Weight: 0.1 + float64(i%8)/10})
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	query := vec(7)
	cut := cypher.BeamCut{Beam: 3, Margin: 1e-6, SimShare: 0.6, WeightShare: 0.4}
	hops := []cypher.Hop{
		{Frontier: []string{id(0)}, Visited: []string{id(0)}, Allowed: realm.Predicates, Reasoning: vec(1), Cut: cut},
		{Frontier: []string{id(1), id(2)}, Visited: []string{id(1), id(2), id(5)}, Allowed: realm.Predicates, Reasoning: vec(2)},
		{Frontier: []string{id(3)}, Allowed: []realm.Predicate{realm.Precedes}, Reasoning: vec(3), Cut: cut},
		{Frontier: nil, Allowed: realm.Predicates},
		{Frontier: []string{id(1)}},
		{Frontier: []string{id(4), id(0)}, Visited: []string{id(4)}, Allowed: realm.Predicates, Cut: cut},
	}
	many, err := s.AdjacentMany(ctx, space, 0.1, query, hops)
	if err != nil || len(many) != len(hops) {
		t.Fatalf("%d results for %d hops (%v)", len(many), len(hops), err)
	}
	key := func(adj []cypher.Adjacent) []string {
		var out []string
		for _, a := range adj {
			out = append(out, fmt.Sprintf("%s-%s-%s %.6f %.6f", a.From, a.Edge.ID, a.Node.ID, a.SimReasoning, a.SimQuery))
		}
		slices.Sort(out)
		return out
	}
	for i, h := range hops {
		alone, err := s.Adjacent(ctx, space, h.Frontier, h.Visited, h.Allowed, 0.1, cypher.ExpandScoring{Query: query, Reasoning: h.Reasoning}, h.Cut)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := key(many[i]), key(alone); !slices.Equal(g, w) {
			t.Errorf("hop %d: together %v\nalone %v", i, g, w)
		}
		if (len(alone) > 0) != (i != 3 && i != 4) {
			t.Errorf("hop %d: %d rows", i, len(alone))
		}
	}
}

// Expansion never returns a memory of another space, even over an edge that joins two
// spaces (no writer makes one; the statements do not read the space of what they reach).
func TestExpansionStaysInSpace(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	mine, other := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, mine); s.RemoveFixture(ctx, other) })
	vec := make([]float32, cyphertest.Dims)
	vec[0] = 1
	put := func(space string, ids ...string) {
		var nodes []realm.Node
		var edges []realm.Edge
		for i, id := range ids {
			nodes = append(nodes, realm.Node{ID: id, Type: realm.Event, Content: id, Embedding: vec})
			if i > 0 {
				edges = append(edges, realm.Edge{ID: id + "e", From: ids[i-1], To: id, Predicate: realm.Correlates, Weight: 0.8})
			}
		}
		if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
			t.Fatal(err)
		}
	}
	a, b, x, y := mine+"a", mine+"b", other+"x", other+"y"
	put(mine, a, b)
	put(other, x, y)
	if err := cypher.JoinSpaces(ctx, s, a, x); err != nil {
		t.Fatal(err)
	}
	adj, err := s.AdjacentMany(ctx, mine, 0.1, vec, []cypher.Hop{{Frontier: []string{a}, Visited: []string{a}, Allowed: realm.Predicates}})
	if err != nil {
		t.Fatal(err)
	}
	var reached []string
	for _, n := range adj[0] {
		reached = append(reached, n.Node.ID)
	}
	if !slices.Contains(reached, b) || slices.ContainsFunc(reached, func(id string) bool { return id != b }) {
		t.Errorf("neighbours of %s: %v, want only %s", a, reached, b)
	}
	paths, nodes, err := s.Paths(ctx, mine, a, realm.Predicates, 0.1, 3, 10, cypher.ExpandScoring{Query: vec}, 0.6, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Errorf("no path from %s", a)
	}
	for _, p := range paths {
		if !slices.Equal(p.IDs, []string{a, b}) {
			t.Errorf("path from %s: %v, want %s→%s", a, p.IDs, a, b)
		}
	}
	for id := range nodes {
		if id != a && id != b {
			t.Errorf("path memory %s of another space returned", id)
		}
	}
}
