package cypher

import (
	"cmp"
	"context"
	_ "embed"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/rs/zerolog/log"

	"github.com/realm-memory/realm"
)

// Expansion (REALM.md §3.2) reads a space's memory graph hop by hop, and each hop as a
// statement (expand_neighbours.cypher, expand_paths.cypher) was a round trip of thousands
// of rows: most of a recall's time. A space small enough (GraphCacheMax memories, all
// cached spaces together) is instead read once into memory, whole — its memory edges in
// the store's order, the properties of its memories that expansion returns, their
// embeddings — and expanded here, in Go, with the statements' rules, to the same answers.
// A snapshot holds one graph_version of its space (SpaceCounts.GraphVersion, read once per
// recall): every statement that writes a memory or a memory edge moves the version, so a
// recall that reads another version reads the space again. A space without a version (no
// Space node, or not written since versions were kept) is expanded by the statements.
// What a snapshot leaves out: the access stats of a memory (a recall writes them; they do
// not move the version), so a memory reached by expansion comes without them.

//go:embed queries/graph_snapshot.cypher
var graphSnapshotCypher string

var qGraphSnapshot = newQuery("graph_snapshot", graphSnapshotCypher)

// DefaultGraphCacheMax is how many memories, all spaces together, the snapshots hold by
// default (a larger space is never read whole): 10,000 memories took 43 MiB and 6.6 s to
// read on a loaded machine, 100,000 took 367 MiB of heap (2.3 GiB allocated while read)
// and 3–4 min, a read that slowed the recalls it ran beside five-fold (bench scale,
// 100,000 memories: p50 123 → 692 ms). A larger cache suits a large space read far more
// than written (bench scale --warm-graph, docs/benchmarks/read-path.md).
const DefaultGraphCacheMax = 20_000

// Expander reads what expansion needs of a space's graph: the store's statements, or a
// snapshot of the space (Store.Expander).
type Expander interface {
	AdjacentMany(ctx context.Context, space string, wSuppress float64, query []float32, hops []Hop) ([][]Adjacent, error)
	PathsMany(ctx context.Context, space string, scan PathScan, starts []PathStart) ([]PathsFound, error)
}

// Expander returns what expands the space as counts found it: its snapshot when the space
// has a graph version and fits the cache, else the store itself. A snapshot of another
// version is replaced: at once for a space of at most GraphSyncMax memories (the recall
// waits for it), in the background for a larger one (the recalls until it is read use the
// statements), so that a write to a large space never makes a recall wait for its snapshot.
func (s *Store) Expander(ctx context.Context, space string, counts SpaceCounts) (Expander, error) {
	c := &s.graphs
	if !c.admits(counts) {
		return s, nil
	}
	if g := c.get(space, counts.GraphVersion); g != nil {
		return g, nil
	}
	if counts.InSpace > GraphSyncMax {
		c.loadInBackground(s, space)
		return s, nil
	}
	g, err := s.loadGraphNow(ctx, space, counts.GraphVersion)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// admits: a space as counts found it is expanded from a snapshot (it has a graph version
// and fits the cache).
func (c *graphCache) admits(counts SpaceCounts) bool {
	return c.max > 0 && counts.GraphVersion != "" && counts.InSpace <= int64(c.max)
}

// loadGraphNow returns the space's snapshot of this version, reading it (and caching it)
// unless held; one is read at a time.
func (s *Store) loadGraphNow(ctx context.Context, space, version string) (*spaceGraph, error) {
	c := &s.graphs
	c.loading.Lock()
	defer c.loading.Unlock()
	if g := c.get(space, version); g != nil {
		return g, nil
	}
	g, err := s.loadGraph(ctx, space)
	if err != nil {
		return nil, err
	}
	if g.version != "" {
		c.put(g)
	}
	return g, nil
}

// GraphStats describes a space's snapshot as LoadGraph read it; zero when the cache does
// not admit the space.
type GraphStats struct {
	Memories, Edges int
	Load            time.Duration
}

// LoadGraph reads the space's snapshot now, when the cache admits the space, and says what
// it holds: the recalls of a space above GraphSyncMax would otherwise use the statements
// until it is read in the background (bench scale --warm-graph).
func (s *Store) LoadGraph(ctx context.Context, space string) (GraphStats, error) {
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil || !s.graphs.admits(counts) {
		return GraphStats{}, err
	}
	started := time.Now()
	g, err := s.loadGraphNow(ctx, space, counts.GraphVersion)
	if err != nil {
		return GraphStats{}, err
	}
	return GraphStats{Memories: len(g.nodes), Edges: len(g.edges), Load: time.Since(started)}, nil
}

// GraphSyncMax is the largest space whose snapshot a recall waits for: 802 memories
// (LoCoMo conv-43) took 0.33 s to read on a loaded machine, 10,000 took 6.6 s.
const GraphSyncMax = 2000

// graphLoadTimeout bounds a snapshot read in the background.
const graphLoadTimeout = 10 * time.Minute

// graphReloadPause is how many times its last read's duration a space's snapshot waits
// before it is read again in the background: such reads take at most a tenth of the time
// of a space written to all the time.
const graphReloadPause = 9

// loadInBackground reads the space's snapshot in the background, unless one is being
// read or the last one ended less than graphReloadPause times its duration ago; errors
// are logged, and the recalls go on with the statements.
func (c *graphCache) loadInBackground(s *Store, space string) {
	c.mu.Lock()
	if c.inflight == nil {
		c.inflight = map[string]bool{}
	}
	if c.inflight[space] || time.Now().Before(c.notBefore[space]) {
		c.mu.Unlock()
		return
	}
	c.inflight[space] = true
	c.mu.Unlock()
	go func() {
		defer func() {
			c.mu.Lock()
			delete(c.inflight, space)
			c.mu.Unlock()
		}()
		ctx, cancel := context.WithTimeout(inBackground(context.Background()), graphLoadTimeout)
		defer cancel()
		started := time.Now()
		g, err := s.loadGraph(ctx, space)
		if err != nil {
			log.Warn().Err(err).Str("space", space).Msg("reading the space's graph snapshot failed; expansion reads the graph by statements")
			return
		}
		if g.version != "" {
			c.put(g)
		}
		took := time.Since(started)
		c.mu.Lock()
		if c.notBefore == nil {
			c.notBefore = map[string]time.Time{}
		}
		c.notBefore[space] = time.Now().Add(graphReloadPause * took)
		c.mu.Unlock()
		log.Debug().Str("space", space).Int("memories", len(g.nodes)).Int("edges", len(g.edges)).Dur("took", took).Msg("graph snapshot read")
	}()
}

// graphCache holds the snapshots of recently expanded spaces, at most max memories in all;
// the least recently used spaces go first.
type graphCache struct {
	max      int
	mu       sync.Mutex
	loading  sync.Mutex      // one snapshot is read at a time by the recalls
	inflight map[string]bool // spaces being read in the background
	// notBefore: when a space's snapshot may next be read in the background (a space
	// written to all the time is not read all the time).
	notBefore map[string]time.Time
	spaces    map[string]*spaceGraph
	clock     int64
}

func (c *graphCache) get(space, version string) *spaceGraph {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.spaces[space]
	if g == nil || g.version != version {
		return nil
	}
	c.clock++
	g.used = c.clock
	return g
}

func (c *graphCache) put(g *spaceGraph) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.spaces == nil {
		c.spaces = map[string]*spaceGraph{}
	}
	c.clock++
	g.used = c.clock
	c.spaces[g.space] = g
	evictOldest(c.spaces, g.space, c.max, func(x *spaceGraph) (int, int64) { return len(x.nodes), x.used })
}

func (c *graphCache) drop(space string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.spaces, space)
}

// spaceGraph is one space's memory graph at one version. It is never changed once read.
type spaceGraph struct {
	space, version string
	nodes          []graphNode
	at             map[string]int32 // memory id → index in nodes
	edges          []graphEdge
	used           int64
}

type graphNode struct {
	node     realm.Node // without embedding and access stats
	emb      []float32
	leftOut  bool  // Reached.SourcesLeftOut
	degree   int64 // its relationships less its provenance edges
	adjacent []int32
	heavy    []int32 // adjacent by weight, heaviest first, ties by edge id
}

type graphEdge struct {
	edge       realm.Edge
	relType    string
	start, end int32
}

// loadGraph reads the space's snapshot (graph_snapshot.cypher).
func (s *Store) loadGraph(ctx context.Context, space string) (*spaceGraph, error) {
	recs, err := s.read(ctx, qGraphSnapshot, map[string]any{"space": space, "inline_sources": InlineSources})
	if err != nil {
		return nil, err
	}
	g := &spaceGraph{space: space, at: make(map[string]int32, len(recs)), nodes: make([]graphNode, 0, len(recs))}
	for _, r := range recs {
		g.version = str(r, "version")
		emb, _ := r.Get("embedding")
		left, _ := r.Get("sources_left_out")
		leftOut, _ := left.(bool)
		n := graphNode{node: nodeOf(propsOf(r, "node")), emb: vector32(emb), leftOut: leftOut, degree: num(r, "degree")}
		g.at[n.node.ID] = int32(len(g.nodes))
		g.nodes = append(g.nodes, n)
	}
	// A snapshot of 100,000 memories holds about 500,000 edges: their ends' ids are the
	// memories' own strings, and their few types and layers one string each, not copies
	// per edge; edges and adjacency lists are allocated at their size, not grown.
	names := map[string]string{}
	intern := func(s string) string {
		if v, ok := names[s]; ok {
			return v
		}
		names[s] = s
		return s
	}
	edges := 0
	for _, r := range recs {
		out, _ := r.Get("out")
		edges += len(asList(out))
	}
	g.edges = make([]graphEdge, 0, edges)
	keys := make(map[string]int32, edges)
	for _, r := range recs {
		out, _ := r.Get("out")
		for _, x := range asList(out) {
			p, _ := x.(map[string]any)
			start, okStart := g.at[propString(p, "start")]
			end, okEnd := g.at[propString(p, "end")]
			if !okStart || !okEnd || !weighted(p["weight"]) {
				continue // no expansion reads an edge without a weight or out of the space
			}
			keys[propString(p, "key")] = int32(len(g.edges))
			e := edgeFromProps(p)
			e.From, e.To, e.Layer = g.nodes[start].node.ID, g.nodes[end].node.ID, intern(e.Layer)
			g.edges = append(g.edges, graphEdge{edge: e, relType: intern(propString(p, "type")), start: start, end: end})
		}
	}
	for i, r := range recs {
		adj, _ := r.Get("adjacent")
		n := &g.nodes[i]
		n.adjacent = make([]int32, 0, len(asList(adj)))
		for _, k := range asList(adj) {
			key, _ := k.(string)
			if e, ok := keys[key]; ok {
				n.adjacent = append(n.adjacent, e)
			}
		}
		n.heavy = slices.Clone(n.adjacent)
		g.heaviestFirst(n.heavy)
	}
	return g, nil
}

// weighted: a weight the statements compare (a number, not null).
func weighted(w any) bool {
	switch w.(type) {
	case float64, int64:
		return true
	}
	return false
}

// neoCosine is Neo4j's vector.similarity.cosine of two vectors, (1 + cos) / 2 in single
// precision (to the bit for most pairs, else one unit in the last place); ok is false where
// Neo4j's is null (a missing vector).
func neoCosine(a, b []float32) (sim float64, ok bool) {
	if len(a) == 0 || len(b) == 0 || len(a) != len(b) {
		return 0, false
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0, false
	}
	c := float32(dot / math.Sqrt(na*nb))
	return float64((1 + c) / 2), true
}

// clipped is a similarity as reachedOf reads it: the cosine, clipped to [0, 1].
func clipped(sim float64, ok bool) float64 {
	if !ok {
		return 0
	}
	return max(0, min(1, 2*sim-1))
}

// bound is an edge's score before temporal decay as the expansion statements bound it.
func bound(simShare, weightShare, sim float64, ok bool, weight float64) float64 {
	s := 0.0
	switch {
	case !ok || sim <= 0.5:
	case sim >= 1.0:
		s = 1.0
	default:
		s = 2*sim - 1
	}
	return simShare*s + weightShare*weight
}

// other is the end of edge e that is not node n (n itself for a loop).
func (g *spaceGraph) other(e graphEdge, n int32) int32 {
	if e.start == n {
		return e.end
	}
	return e.start
}

// read is the memory edges of node n that expansion reads, in the store's order: of the
// types, at or above wSuppress, leading to a memory not in excluded; of a hub, the first
// HubScan of them only.
func (g *spaceGraph) read(n int32, types []string, wSuppress float64, hub bool, excluded ...int32) []int32 {
	var out []int32
	for _, e := range g.nodes[n].adjacent {
		if !g.reads(n, e, types, wSuppress, excluded) {
			continue
		}
		out = append(out, e)
		if hub && len(out) == HubScan {
			break
		}
	}
	return out
}

// heaviest is read(n, types, wSuppress, true, excluded...) ordered by heaviestFirst: of a
// memory of at most HubScan edges, its edges in that order filtered.
func (g *spaceGraph) heaviest(n int32, types []string, wSuppress float64, excluded ...int32) []int32 {
	if len(g.nodes[n].adjacent) > HubScan {
		out := g.read(n, types, wSuppress, true, excluded...)
		g.heaviestFirst(out)
		return out
	}
	var out []int32
	for _, e := range g.nodes[n].heavy {
		if g.reads(n, e, types, wSuppress, excluded) {
			out = append(out, e)
		}
	}
	return out
}

// reads: expansion reads edge e of memory n.
func (g *spaceGraph) reads(n, e int32, types []string, wSuppress float64, excluded []int32) bool {
	x := g.edges[e]
	return slices.Contains(types, x.relType) && x.edge.Weight >= wSuppress && !slices.Contains(excluded, g.other(x, n))
}

// heaviestFirst orders edges by weight, heaviest first, ties by edge id.
func (g *spaceGraph) heaviestFirst(edges []int32) {
	slices.SortStableFunc(edges, func(a, b int32) int {
		x, y := g.edges[a].edge, g.edges[b].edge
		return cmp.Or(cmp.Compare(y.Weight, x.Weight), cmp.Compare(x.ID, y.ID))
	})
}

func (g *spaceGraph) reached(n int32, reasoning, query []float32) Reached {
	x := &g.nodes[n]
	return Reached{Node: x.node, SimReasoning: clipped(neoCosine(x.emb, reasoning)), SimQuery: clipped(neoCosine(x.emb, query)), SourcesLeftOut: x.leftOut}
}

// AdjacentMany is Store.AdjacentMany (expand_neighbours.cypher) on the snapshot.
func (g *spaceGraph) AdjacentMany(_ context.Context, space string, wSuppress float64, query []float32, hops []Hop) ([][]Adjacent, error) {
	out := make([][]Adjacent, len(hops))
	if space != g.space {
		return out, nil
	}
	visits := 0
	for _, h := range hops {
		if len(h.Frontier) > 0 && len(h.Allowed) > 0 {
			visits = max(visits, len(h.Visited))
		}
	}
	hubRead := HubBranch + 2*visits
	for i, h := range hops {
		if len(h.Frontier) == 0 || len(h.Allowed) == 0 {
			continue
		}
		h = h.settled()
		cut, hubDegree := h.Cut, h.HubDegree
		types := relTypes(h.Allowed)
		for _, fid := range h.Frontier {
			u, ok := g.at[fid]
			if !ok {
				continue
			}
			hub := g.nodes[u].degree > int64(hubDegree)
			var read []int32
			if hub {
				read = g.heaviest(u, types, wSuppress)
				read = read[:min(len(read), hubRead)]
			} else {
				read = g.read(u, types, wSuppress, false)
			}
			type row struct {
				e, v   int32
				sim    float64
				simOK  bool
				bounds float64
			}
			var rows []row
			for _, e := range read {
				v := g.other(g.edges[e], u)
				if slices.Contains(h.Visited, g.nodes[v].node.ID) {
					continue
				}
				if hub && len(rows) == HubBranch {
					break
				}
				sim, ok := neoCosine(g.nodes[v].emb, h.Reasoning)
				rows = append(rows, row{e: e, v: v, sim: sim, simOK: ok, bounds: bound(cut.SimShare, cut.WeightShare, sim, ok, g.edges[e].edge.Weight)})
			}
			best := map[int32]float64{}
			for _, r := range rows {
				if b, ok := best[r.v]; !ok || r.bounds > b {
					best[r.v] = r.bounds
				}
			}
			kth := math.Inf(-1)
			if len(best) >= cut.Beam {
				bests := make([]float64, 0, len(best))
				for _, b := range best {
					bests = append(bests, b)
				}
				slices.Sort(bests)
				kth = bests[len(bests)-cut.Beam] - cut.Margin
			}
			for _, r := range rows {
				if r.bounds >= kth {
					reached := g.reached(r.v, nil, query)
					reached.SimReasoning = clipped(r.sim, r.simOK)
					out[i] = append(out[i], Adjacent{From: fid, Edge: g.edges[r.e].edge, Reached: reached})
				}
			}
		}
	}
	return out, nil
}

// PathsMany is Store.PathsMany (expand_paths.cypher) on the snapshot.
func (g *spaceGraph) PathsMany(_ context.Context, space string, scan PathScan, starts []PathStart) ([]PathsFound, error) {
	out := make([]PathsFound, len(starts))
	if space != g.space {
		return out, nil
	}
	for i, st := range starts {
		if len(st.Allowed) == 0 || st.MaxHops < 1 {
			continue
		}
		out[i] = g.paths(st, scan)
	}
	return out, nil
}

// walk is a path of paths: its memories (the start first) and edges, as indices.
type walk struct {
	nodes, edges []int32
}

// paths is one start's path search, as expand_paths.cypher walks it.
func (g *spaceGraph) paths(st PathStart, scan PathScan) PathsFound {
	u, ok := g.at[st.From]
	if !ok {
		return PathsFound{}
	}
	maxHops := min(st.MaxHops, 3)
	types := relTypes(st.Allowed)
	via := func(n int32) bool { return g.nodes[n].degree <= PathMaxViaDegree }
	// The first hop: the PathBranch best by edge score bound (of a hub, among its
	// HubBranch heaviest).
	var firsts []int32
	if via(u) {
		firsts = g.read(u, types, scan.WSuppress, false, u)
	} else {
		firsts = g.heaviest(u, types, scan.WSuppress, u)
		firsts = firsts[:min(len(firsts), HubBranch)]
	}
	bounds := make(map[int32]float64, len(firsts))
	for _, e := range firsts {
		sim, ok := neoCosine(g.nodes[g.other(g.edges[e], u)].emb, st.Reasoning)
		bounds[e] = bound(scan.SimShare, scan.WeightShare, sim, ok, g.edges[e].edge.Weight)
	}
	slices.SortStableFunc(firsts, func(a, b int32) int {
		return cmp.Or(cmp.Compare(bounds[b], bounds[a]), cmp.Compare(g.edges[a].edge.ID, g.edges[b].edge.ID))
	})
	firsts = firsts[:min(len(firsts), PathBranch)]

	var walks []walk
	type prefix struct{ v1, e1, e2 int32 }
	var seconds []int32 // the memories two hops away, in the order first met
	prefixes := map[int32][]prefix{}
	for _, e1 := range firsts {
		v1 := g.other(g.edges[e1], u)
		walks = append(walks, walk{nodes: []int32{u, v1}, edges: []int32{e1}})
		if maxHops < 2 || !via(v1) {
			continue
		}
		next := g.heaviest(v1, types, scan.WSuppress, u, v1)
		for _, e2 := range next[:min(len(next), PathBranch)] {
			v2 := g.other(g.edges[e2], v1)
			if _, ok := prefixes[v2]; !ok {
				seconds = append(seconds, v2)
			}
			prefixes[v2] = append(prefixes[v2], prefix{v1, e1, e2})
		}
	}
	for _, v2 := range seconds {
		var thirds []int32
		if maxHops >= 3 && via(v2) {
			thirds = g.heaviest(v2, types, scan.WSuppress, u, v2)
		}
		for _, p := range prefixes[v2] {
			walks = append(walks, walk{nodes: []int32{u, p.v1, v2}, edges: []int32{p.e1, p.e2}})
			beyond := 0
			for _, e3 := range thirds {
				v3 := g.other(g.edges[e3], v2)
				if v3 == p.v1 || beyond == PathBranch {
					continue
				}
				beyond++
				walks = append(walks, walk{nodes: []int32{u, p.v1, v2, v3}, edges: []int32{p.e1, p.e2, e3}})
			}
		}
	}
	if len(walks) == 0 {
		return PathsFound{}
	}
	prior := func(w walk) float64 {
		s := 0.0
		for _, e := range w.edges {
			s += g.edges[e].edge.Weight
		}
		return s/float64(len(w.edges)) - 0.03*float64(len(w.edges)-1)
	}
	priors := make([]float64, len(walks))
	order := make([]int, len(walks))
	for i, w := range walks {
		priors[i], order[i] = prior(w), i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := walks[a], walks[b]
		return cmp.Or(cmp.Compare(priors[b], priors[a]), cmp.Compare(len(x.edges), len(y.edges)),
			slices.CompareFunc(x.nodes, y.nodes, func(i, j int32) int { return cmp.Compare(g.nodes[i].node.ID, g.nodes[j].node.ID) }),
			slices.CompareFunc(x.edges, y.edges, func(i, j int32) int { return cmp.Compare(g.edges[i].edge.ID, g.edges[j].edge.ID) }))
	})
	order = order[:min(len(order), max(scan.Limit, 0))]
	if len(order) == 0 {
		return PathsFound{}
	}
	found := PathsFound{Paths: make([]Path, 0, len(order)), Nodes: map[string]Reached{}}
	for _, i := range order {
		var p Path
		for _, n := range walks[i].nodes {
			id := g.nodes[n].node.ID
			p.IDs = append(p.IDs, id)
			if _, ok := found.Nodes[id]; !ok {
				found.Nodes[id] = g.reached(n, st.Reasoning, scan.Query)
			}
		}
		for _, e := range walks[i].edges {
			p.Edges = append(p.Edges, g.edges[e].edge)
		}
		found.Paths = append(found.Paths, p)
	}
	return found
}
