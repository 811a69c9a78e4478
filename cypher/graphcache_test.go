package cypher_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// randomGraph writes a space of n memories with a Space node (so a graph version) and
// random memory edges: a hub of hubEdges edges (above HubScan, its first ones in the
// store's order are read), parallel edges of other predicates, weights with ties (ties
// are broken by edge id), a few memories without an embedding.
func randomGraph(t *testing.T, s *cypher.Store, n, hubEdges int, seed uint64) (string, []realm.Node, *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.DeleteSpace(ctx, space) })
	rng := rand.New(rand.NewPCG(seed, 1))
	vec := func() []float32 {
		v := make([]float32, cyphertest.Dims)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	var nodes []realm.Node
	for i := range n {
		nd := realm.Node{ID: fmt.Sprintf("%s-m%03d", space, i), Type: realm.Fact, Content: fmt.Sprintf("memory %d", i), Sources: []string{"o1"}}
		if i%17 != 5 {
			nd.Embedding = vec()
		}
		nodes = append(nodes, nd)
	}
	var edges []realm.Edge
	edge := func(from, to int, p realm.Predicate) {
		edges = append(edges, realm.Edge{ID: fmt.Sprintf("%s-e%04d", space, len(edges)), From: nodes[from].ID, To: nodes[to].ID,
			Predicate: p, Weight: math.Round(rng.Float64()*20) / 20, Description: fmt.Sprintf("edge %d", len(edges))})
	}
	preds := []realm.Predicate{realm.Instantiates, realm.Correlates, realm.Precedes, realm.Contradicts}
	for range hubEdges {
		edge(0, 1+rng.IntN(n-1), preds[rng.IntN(len(preds))])
	}
	for range 4 * n {
		a, b := rng.IntN(n), rng.IntN(n)
		if a != b {
			edge(a, b, preds[rng.IntN(len(preds))])
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	if err := s.PutScaleSpace(ctx, space, "test", cyphertest.Dims, 1, ""); err != nil {
		t.Fatal(err)
	}
	return space, nodes, rng
}

// snapshot returns the space's expander and checks that it is a snapshot, not the store.
func snapshot(t *testing.T, s *cypher.Store, space string) cypher.Expander {
	t.Helper()
	ctx := context.Background()
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	if counts.GraphVersion == "" {
		t.Fatal("the space has no graph version")
	}
	x, err := s.Expander(ctx, space, counts)
	if err != nil {
		t.Fatal(err)
	}
	if x == cypher.Expander(s) {
		t.Fatal("the space's expansion is not served from a snapshot")
	}
	return x
}

// sameReached compares two reached memories: equal nodes, similarities within Neo4j's
// single-precision rounding.
func sameReached(a, b cypher.Reached) bool {
	a.Node.AccessCount, a.Node.LastAccessedAt = 0, nil
	b.Node.AccessCount, b.Node.LastAccessedAt = 0, nil
	return fmt.Sprint(a.Node) == fmt.Sprint(b.Node) && a.SourcesLeftOut == b.SourcesLeftOut &&
		math.Abs(a.SimReasoning-b.SimReasoning) < 1e-6 && math.Abs(a.SimQuery-b.SimQuery) < 1e-6
}

// The snapshot expands a space as the statements do: AdjacentMany and PathsMany from it
// return what expand_neighbours.cypher and expand_paths.cypher return, for random
// frontiers, visited sets, predicates, reasoning vectors, beam cuts and hub degrees
// (a hub read by its heaviest edges among the first HubScan in the store's order, and
// path searches starting from it) on a random graph.
func TestGraphSnapshotExpandsAsStatements(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space, nodes, rng := randomGraph(t, s, 120, cypher.HubScan+100, 7)
	x := snapshot(t, s, space)
	vec := func() []float32 {
		v := make([]float32, cyphertest.Dims)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	pick := func(k int) []string {
		var out []string
		for _, i := range rng.Perm(len(nodes))[:k] {
			out = append(out, nodes[i].ID)
		}
		return out
	}
	preds := [][]realm.Predicate{realm.Predicates, {realm.Instantiates, realm.Precedes}, {realm.Correlates}}
	adjacent, paths := 0, 0
	for round := range 12 {
		query := vec()
		var hops []cypher.Hop
		for h := range 4 {
			frontier := pick(1 + rng.IntN(4))
			if h == 0 {
				frontier = append(frontier, nodes[0].ID) // the hub
			}
			hop := cypher.Hop{Frontier: frontier, Visited: append(slices.Clone(frontier), pick(rng.IntN(20))...),
				Allowed: preds[rng.IntN(len(preds))], Reasoning: vec(), HubDegree: []int{0, 40, 200}[rng.IntN(3)]}
			if rng.IntN(3) > 0 {
				hop.Cut = cypher.BeamCut{Beam: 1 + rng.IntN(6), Margin: 1e-6, SimShare: 0.6, WeightShare: 0.4}
			}
			hops = append(hops, hop)
		}
		want, err := s.AdjacentMany(ctx, space, 0.1, query, hops)
		if err != nil {
			t.Fatal(err)
		}
		got, err := x.AdjacentMany(ctx, space, 0.1, query, hops)
		if err != nil {
			t.Fatal(err)
		}
		for i := range hops {
			adjacent += len(want[i])
			if len(got[i]) != len(want[i]) {
				t.Fatalf("round %d hop %d: %d adjacent from the snapshot, %d from the statement", round, i, len(got[i]), len(want[i]))
			}
			for j := range got[i] {
				g, w := got[i][j], want[i][j]
				if g.From != w.From || fmt.Sprint(g.Edge) != fmt.Sprint(w.Edge) || !sameReached(g.Reached, w.Reached) {
					t.Fatalf("round %d hop %d row %d:\n snapshot  %+v\n statement %+v", round, i, j, g, w)
				}
			}
		}

		var starts []cypher.PathStart
		for k := range 4 {
			from := pick(1)[0]
			if k == 0 {
				from = nodes[0].ID
			}
			starts = append(starts, cypher.PathStart{From: from, Allowed: preds[rng.IntN(len(preds))], MaxHops: 1 + rng.IntN(3), Reasoning: vec()})
		}
		scan := cypher.PathScan{WSuppress: 0.1, Limit: 40, Query: query, SimShare: 0.6, WeightShare: 0.4}
		wantP, err := s.PathsMany(ctx, space, scan, starts)
		if err != nil {
			t.Fatal(err)
		}
		gotP, err := x.PathsMany(ctx, space, scan, starts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range starts {
			g, w := gotP[i], wantP[i]
			paths += len(w.Paths)
			if fmt.Sprint(g.Paths) != fmt.Sprint(w.Paths) {
				t.Fatalf("round %d start %d: paths differ:\n snapshot  %v\n statement %v", round, i, g.Paths, w.Paths)
			}
			if len(g.Nodes) != len(w.Nodes) {
				t.Fatalf("round %d start %d: %d memories on the paths from the snapshot, %d from the statement", round, i, len(g.Nodes), len(w.Nodes))
			}
			for id, n := range w.Nodes {
				if !sameReached(g.Nodes[id], n) {
					t.Fatalf("round %d start %d, %s:\n snapshot  %+v\n statement %+v", round, i, id, g.Nodes[id], n)
				}
			}
		}
	}
	t.Logf("%d adjacent memories and %d paths compared", adjacent, paths)
	if adjacent < 100 || paths < 100 {
		t.Fatalf("too little compared: %d adjacent, %d paths", adjacent, paths)
	}
}
