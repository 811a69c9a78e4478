package cypher_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// Paths walks through no memory of more than cypher.PathMaxViaDegree memory edges: a
// hub one edge above the bound ends and starts paths but is not passed through, while
// a memory exactly at the bound and memories of a few edges are walked, over their
// cypher.PathBranch heaviest edges (ties by id). The paths are checked against the simple
// paths of the hand-built graph enumerated here under the same rules, best prior first
// (ties: fewer hops, then ids).
func TestPathsNotThroughHub(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })

	id := func(name string) string { return space + name }
	leaves := cypher.PathMaxViaDegree // the hub: every leaf + u + low2 = bound + 2 edges
	// The hub's first HubScan edges in the store's order are read, and that order is the
	// store's: as many leaves as it may leave unread are like the reasoning text beyond
	// the PathBranch that a start follows.
	unread := leaves + 2 - cypher.HubScan
	nodes := []realm.Node{}
	for _, name := range []string{"u", "hub", "big", "low", "far", "low2"} {
		nodes = append(nodes, realm.Node{ID: id(name), Type: realm.Event, Content: name})
	}
	var edges []realm.Edge
	edge := func(from, to string, w float64) {
		edges = append(edges, realm.Edge{ID: fmt.Sprintf("%se%d", space, len(edges)), From: id(from), To: id(to),
			Predicate: realm.Instantiates, Weight: w})
	}
	edge("u", "hub", 0.9)
	edge("u", "low", 0.6)
	edge("low", "far", 0.6)
	edge("u", "low2", 0.5)
	edge("low2", "hub", 0.5)
	edge("u", "big", 0.7)
	reasoning := make([]float32, cyphertest.Dims)
	reasoning[0] = 1
	for i := range leaves {
		leaf := fmt.Sprintf("L%04d", i)
		n := realm.Node{ID: id(leaf), Type: realm.Fact, Content: leaf}
		w := 0.9
		if i >= 100 && i < 100+cypher.PathBranch+unread {
			n.Embedding, w = reasoning, 0.95 // among the hub's HubBranch heaviest
		}
		nodes = append(nodes, n)
		edge("hub", leaf, w)
		if i < leaves-1 { // big: u + all leaves but one = exactly the bound
			edge("big", leaf, 0.7)
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}

	type path struct {
		ids, edges []string
		prior      float64
	}
	degree := map[string]int{}
	adj := map[string][]realm.Edge{}
	for _, e := range edges {
		degree[e.From]++
		degree[e.To]++
		adj[e.From] = append(adj[e.From], e)
		adj[e.To] = append(adj[e.To], e)
	}
	// want enumerates the simple paths of 1..hops hops from start, through no memory of
	// more than bound edges, following the branch heaviest edges (ties by id) to memories
	// not on the path of each but the start, in the statement's order.
	want := func(start string, hops, bound, branch int) []path {
		var out []path
		var walk func(ids, es []string, ws []float64)
		walk = func(ids, es []string, ws []float64) {
			if len(es) > 0 {
				sum := 0.0
				for _, w := range ws {
					sum += w
				}
				n := float64(len(ws))
				out = append(out, path{slices.Clone(ids), slices.Clone(es), sum/n - 0.03*(n-1)})
			}
			last := ids[len(ids)-1]
			if len(es) == hops || (len(ids) > 1 && degree[last] > bound) {
				return
			}
			other := func(e realm.Edge) string {
				if e.To == last {
					return e.From
				}
				return e.To
			}
			var next []realm.Edge
			for _, e := range adj[last] {
				if !slices.Contains(ids, other(e)) {
					next = append(next, e)
				}
			}
			if len(ids) > 1 {
				slices.SortFunc(next, func(a, b realm.Edge) int { return cmp.Or(cmp.Compare(b.Weight, a.Weight), strings.Compare(a.ID, b.ID)) })
				next = next[:min(branch, len(next))]
			}
			for _, e := range next {
				walk(append(ids, other(e)), append(es, e.ID), append(ws, e.Weight))
			}
		}
		walk([]string{start}, nil, nil)
		slices.SortFunc(out, func(a, b path) int {
			return cmp.Or(cmp.Compare(b.prior, a.prior), cmp.Compare(len(a.edges), len(b.edges)),
				slices.Compare(a.ids, b.ids), slices.Compare(a.edges, b.edges))
		})
		return out
	}
	keys := func(ps []path) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = strings.Join(p.ids, ">") + " " + strings.Join(p.edges, ",")
		}
		return out
	}
	through := func(ps []path, name string) (n int) {
		for _, p := range ps {
			if slices.Contains(p.ids[1:len(p.ids)-1], id(name)) {
				n++
			}
		}
		return n
	}
	if all := want(id("u"), 3, 1<<30, 1<<30); through(all, "hub") < leaves {
		t.Fatalf("the graph has %d paths through the hub without a bound; want at least %d", through(all, "hub"), leaves)
	}

	tests := []struct {
		name        string
		from        string
		hops, limit int
	}{
		{"All", "u", 3, 100000},
		{"Best10", "u", 3, 10}, // [u hub], then 9 of the PathBranch [u big leaf hub] by id
		{"TwoHops", "u", 2, 100000},
		{"OneHop", "u", 1, 100000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths, byID, err := s.Paths(ctx, space, id(tt.from), realm.Predicates, 0.1, tt.hops, tt.limit, cypher.ExpandScoring{}, 0.6, 0.4)
			if err != nil {
				t.Fatal(err)
			}
			var got []path
			for _, p := range paths {
				gp := path{ids: p.IDs}
				for _, e := range p.Edges {
					gp.edges = append(gp.edges, e.ID)
				}
				got = append(got, gp)
				for _, n := range p.IDs {
					if _, ok := byID[n]; !ok {
						t.Fatalf("memory %s of a path is not among the nodes", n)
					}
				}
			}
			exp := want(id(tt.from), tt.hops, cypher.PathMaxViaDegree, cypher.PathBranch)
			exp = exp[:min(tt.limit, len(exp))]
			if g, w := keys(got), keys(exp); !slices.Equal(g, w) {
				t.Errorf("%d paths, want %d; first differing:\n%s", len(g), len(w), firstDiff(g, w))
			}
			if n := through(got, "hub"); n != 0 {
				t.Errorf("%d paths pass through the hub", n)
			}
		})
	}

	// A hub starts paths, but only over its PathBranch best first hops by edge score among
	// its HubBranch heaviest edges (the leaves most like the reasoning text, here those
	// whose embedding it is, over heavier edges than the other leaves').
	var reasoningLeaves []string // the hub's heaviest, PathBranch of them followed from it
	for i := range cypher.PathBranch + unread {
		reasoningLeaves = append(reasoningLeaves, id(fmt.Sprintf("L%04d", 100+i)))
	}
	t.Run("FromHub", func(t *testing.T) {
		paths, byID, err := s.Paths(ctx, space, id("hub"), realm.Predicates, 0.1, 2, 100000, cypher.ExpandScoring{Reasoning: reasoning, Query: reasoning}, 0.6, 0.4)
		if err != nil {
			t.Fatal(err)
		}
		first := map[string]bool{}
		for _, p := range paths {
			first[p.IDs[1]] = true
		}
		got := slices.Sorted(maps.Keys(first))
		if len(got) != cypher.PathBranch || slices.ContainsFunc(got, func(n string) bool { return !slices.Contains(reasoningLeaves, n) }) {
			t.Errorf("first hops from the hub %v, want %d of %v", got, cypher.PathBranch, reasoningLeaves)
		}
		if n := byID[got[0]]; n.SimReasoning < 0.999 || n.SimQuery < 0.999 || len(n.Node.Embedding) != 0 {
			t.Errorf("%s: similarities %g, %g (want 1), embedding of %d sent", got[0], n.SimReasoning, n.SimQuery, len(n.Node.Embedding))
		}
	})

	t.Run("EndsAndBoundary", func(t *testing.T) {
		paths, _, err := s.Paths(ctx, space, id("u"), realm.Predicates, 0.1, 3, 100000, cypher.ExpandScoring{}, 0.6, 0.4)
		if err != nil {
			t.Fatal(err)
		}
		has := func(names ...string) bool {
			ids := make([]string, len(names))
			for i, n := range names {
				ids[i] = id(n)
			}
			return slices.ContainsFunc(paths, func(p cypher.Path) bool { return slices.Equal(p.IDs, ids) })
		}
		leaf := strings.TrimPrefix(paths[1].IDs[2], space) // the [u big leaf hub] of the best prior
		for _, p := range [][]string{{"u", "hub"}, {"u", "low2", "hub"}, {"u", "big", leaf, "hub"}, {"u", "low", "far"}, {"u", "big", leaf}} {
			if !has(p...) {
				t.Errorf("no path %v", p)
			}
		}
		for _, p := range [][]string{{"u", "hub", "L0000"}, {"u", "low2", "hub", "L0999"}, {"u", "hub", "low2"}} {
			if has(p...) {
				t.Errorf("path %v passes through the hub", p)
			}
		}
	})
	// PathsMany answers several starts in one statement, each as Paths alone; a start
	// without a predicate or a hop, or of no memory of the space, finds nothing.
	t.Run("Many", func(t *testing.T) {
		scan := cypher.PathScan{WSuppress: 0.1, Limit: 100000, Query: reasoning, SimShare: 0.6, WeightShare: 0.4}
		starts := []cypher.PathStart{
			{From: id("u"), Allowed: realm.Predicates, MaxHops: 3},
			{From: id("hub"), Allowed: realm.Predicates, MaxHops: 2, Reasoning: reasoning},
			{From: id("u"), MaxHops: 3},
			{From: id("low"), Allowed: realm.Predicates},
			{From: "no-such-memory", Allowed: realm.Predicates, MaxHops: 2},
			{From: id("low"), Allowed: []realm.Predicate{realm.Instantiates}, MaxHops: 1},
		}
		found, err := s.PathsMany(ctx, space, scan, starts)
		if err != nil || len(found) != len(starts) {
			t.Fatalf("%d results for %d starts (%v)", len(found), len(starts), err)
		}
		for i, st := range starts {
			paths, byID, err := s.Paths(ctx, space, st.From, st.Allowed, scan.WSuppress, st.MaxHops, scan.Limit,
				cypher.ExpandScoring{Query: scan.Query, Reasoning: st.Reasoning}, 0.6, 0.4)
			if err != nil {
				t.Fatal(err)
			}
			// The hub reads its first HubScan edges in the store's order, which each plan
			// may walk its own way: which of the reasoning leaves go unread may differ, so
			// the hub's paths are compared with those leaves' ids masked.
			mask := func(ids []string) string { return strings.Join(ids, ">") }
			if st.From == id("hub") {
				mask = func(ids []string) string {
					out := slices.Clone(ids)
					for j, n := range out {
						if slices.Contains(reasoningLeaves, n) {
							out[j] = "reasoning leaf"
						}
					}
					return strings.Join(out, ">")
				}
			}
			g, w := make([]string, len(found[i].Paths)), make([]string, len(paths))
			for j, p := range found[i].Paths {
				g[j] = mask(p.IDs)
			}
			for j, p := range paths {
				w[j] = mask(p.IDs)
			}
			sameNodes := slices.Equal(slices.Sorted(maps.Keys(found[i].Nodes)), slices.Sorted(maps.Keys(byID)))
			if st.From == id("hub") {
				sameNodes = len(found[i].Nodes) == len(byID)
			}
			if !slices.Equal(g, w) || !sameNodes {
				t.Errorf("start %d (%s): %d paths and %d memories together, %d and %d alone; first differing:\n%s", i, st.From,
					len(found[i].Paths), len(found[i].Nodes), len(paths), len(byID), firstDiff(g, w))
			}
			if (i == 0 || i == 1 || i == 5) != (len(paths) > 0) {
				t.Errorf("start %d (%s): %d paths", i, st.From, len(paths))
			}
		}
	})
}

func firstDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("#%d got  %q\n#%d want %q", i, g, i, w)
		}
	}
	return ""
}

// A memory reached by expansion (Paths, Adjacent) comes back with every property
// MemoriesByIDs reads but its embedding: the expansion statements name the properties
// they send, so that the embedding is not read back.
func TestExpansionNodesWhole(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	v := make([]float32, cyphertest.Dims)
	v[0] = 1
	nodes := []realm.Node{
		{ID: space + "a", Type: realm.Event, Content: "a", Embedding: v},
		{ID: space + "b", Type: realm.Entity, Name: "B", Content: "b", Description: "the b", Keywords: []string{"b", "bee"},
			Aliases: []string{"Bee"}, Sources: []string{"o1"}, AccessCount: 3, TStart: &at, Embedding: v},
	}
	edges := []realm.Edge{{ID: space + "e", From: space + "a", To: space + "b", Predicate: realm.Instantiates, Weight: 0.7}}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	if err := cypher.SetMemoryProps(ctx, s, space, space+"b", map[string]any{"category": "person", "role": "speaker",
		"participants": []string{"A", "B"}, "last_accessed_at": at, "valid_until": at, "superseded_at": at}); err != nil {
		t.Fatal(err)
	}
	stored, err := s.MemoriesByIDs(ctx, space, []string{space + "b"})
	if err != nil || len(stored) != 1 {
		t.Fatalf("stored %v, %v", stored, err)
	}
	want := stored[0]
	want.Embedding = nil
	if want.Category == "" || want.ValidUntil == nil || len(want.Participants) != 2 || want.TEnd == nil {
		t.Fatalf("the fixture lacks properties: %+v", want)
	}
	_, byID, err := s.Paths(ctx, space, space+"a", realm.Predicates, 0.1, 2, 10, cypher.ExpandScoring{Query: v, Reasoning: v}, 0.6, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	if got := byID[space+"b"].Node; !reflect.DeepEqual(got, want) {
		t.Errorf("Paths: %+v\nwant %+v", got, want)
	}
	adj, err := s.Adjacent(ctx, space, []string{space + "a"}, []string{space + "a"}, realm.Predicates, 0.1, cypher.ExpandScoring{Query: v, Reasoning: v}, cypher.BeamCut{})
	if err != nil || len(adj) != 1 {
		t.Fatalf("adjacent %v, %v", adj, err)
	}
	if got := adj[0].Node; !reflect.DeepEqual(got, want) {
		t.Errorf("Adjacent: %+v\nwant %+v", got, want)
	}
}

// A memory reached by expansion that derives from more than cypher.InlineSources
// observations comes without its sources, marked so; one at the bound comes with them; and
// MemorySources reads them.
func TestExpansionSourcesLeftOut(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	v := make([]float32, cyphertest.Dims)
	v[0] = 1
	many := func(n int) (ids []string) {
		for i := range n {
			ids = append(ids, fmt.Sprintf("%so%d", space, i))
		}
		return ids
	}
	obs := many(cypher.InlineSources + 1)
	nodes := []realm.Node{
		{ID: space + "a", Type: realm.Event, Content: "a", Embedding: v},
		{ID: space + "big", Type: realm.Entity, Name: "Big", Sources: obs, Embedding: v},
		{ID: space + "bound", Type: realm.Entity, Name: "Bound", Sources: obs[:cypher.InlineSources], Embedding: v},
	}
	for _, id := range obs {
		nodes = append(nodes, realm.Node{ID: id, Type: realm.Event, Content: "observation"})
	}
	edges := []realm.Edge{
		{ID: space + "e1", From: space + "a", To: space + "big", Predicate: realm.Instantiates, Weight: 0.7},
		{ID: space + "e2", From: space + "a", To: space + "bound", Predicate: realm.Instantiates, Weight: 0.7},
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	for id, from := range map[string][]string{space + "big": obs, space + "bound": obs[:cypher.InlineSources]} {
		if err := cypher.DeriveFrom(ctx, s, id, from); err != nil {
			t.Fatal(err)
		}
	}
	check := func(how string, r cypher.Reached) {
		t.Helper()
		switch r.Node.ID {
		case space + "big":
			if !r.SourcesLeftOut || r.Node.Sources != nil {
				t.Errorf("%s: big left out %v with %d sources, want left out", how, r.SourcesLeftOut, len(r.Node.Sources))
			}
		case space + "bound":
			if r.SourcesLeftOut || len(r.Node.Sources) != cypher.InlineSources {
				t.Errorf("%s: bound left out %v with %d sources, want all %d", how, r.SourcesLeftOut, len(r.Node.Sources), cypher.InlineSources)
			}
		}
	}
	adj, err := s.Adjacent(ctx, space, []string{space + "a"}, []string{space + "a"}, realm.Predicates, 0.1, cypher.ExpandScoring{Query: v, Reasoning: v}, cypher.BeamCut{})
	if err != nil || len(adj) != 2 {
		t.Fatalf("adjacent %v, %v", adj, err)
	}
	for _, a := range adj {
		check("Adjacent", a.Reached)
	}
	_, byID, err := s.Paths(ctx, space, space+"a", realm.Predicates, 0.1, 1, 10, cypher.ExpandScoring{Query: v, Reasoning: v}, 0.6, 0.4)
	if err != nil || len(byID) != 3 {
		t.Fatalf("paths %v, %v", byID, err)
	}
	for _, r := range byID {
		check("Paths", r)
	}
	got, err := s.MemorySources(ctx, space, []string{space + "big", space + "nothing"})
	if err != nil || len(got) != 1 || !slices.Equal(got[space+"big"], obs) {
		t.Errorf("MemorySources: %v, %v; want big's %d", got, err, len(obs))
	}
}
