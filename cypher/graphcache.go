package cypher

import (
	"cmp"
	"context"
	_ "embed"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
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
// recall that reads another version reads the space again — but after this process's
// reconsolidations, their reverts, its deletions of memories and its ingestion writes
// (those after a recall), which the snapshot follows (followWrite). A space without a version (no Space node, or not written since versions
// were kept) is expanded by the statements.
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
	// MemorySources is Store.MemorySources: the sources of the memories expansion reached
	// without them (Reached.SourcesLeftOut).
	MemorySources(ctx context.Context, space string, ids []string) (map[string][]string, error)
}

// Expander returns what expands the space as counts found it: its snapshot when the space
// has a graph version and fits the cache, else the store itself. A snapshot of another
// version is replaced: at once for a space of at most GraphSyncMax memories (the recall
// waits for it), in the background for a larger one (the recalls until it is read use the
// statements), so that a write to a large space never makes a recall wait for its snapshot;
// not while a write of this process is under way that the snapshot follows (the recalls
// meanwhile use the statements). A recall that uses the statements so is counted
// (RecallsWithoutSnapshot) and logged (withoutSnapshot).
func (s *Store) Expander(ctx context.Context, space string, counts SpaceCounts) (Expander, error) {
	c := &s.graphs
	if !c.admits(counts) {
		return s, nil
	}
	if err := c.awaitFollow(ctx, space); err != nil {
		return nil, err
	}
	if g := c.get(space, counts.GraphVersion); g != nil {
		g.recalled.Store(true)
		return g, nil
	}
	if counts.InSpace > GraphSyncMax || c.isFollowing(space) {
		why, next := s.loadInBackground(space)
		c.withoutSnapshot(space, why, next)
		return s, nil
	}
	g, err := s.loadGraphNow(ctx, space, counts.GraphVersion)
	if err != nil {
		return nil, err
	}
	g.recalled.Store(true)
	return g, nil
}

// Recalling tells that a recall read the space as counts found it: its snapshot of that
// version, if held, follows the next ingestion (graphMove.recalledOnly) whether or not the
// recall expands from it (Expander is asked only by a recall that expands something; half
// the recalls at 100,000 memories expand nothing, and an ingestion after one of them left
// the snapshot stale for every recall after, read again in 30 s).
func (s *Store) Recalling(space string, counts SpaceCounts) {
	if g := s.graphs.get(space, counts.GraphVersion); g != nil {
		g.recalled.Store(true)
	}
}

// admits: a space as counts found it is expanded from a snapshot (it has a graph version
// and fits the cache).
func (c *graphCache) admits(counts SpaceCounts) bool {
	return c.max > 0 && counts.GraphVersion != "" && counts.InSpace <= int64(c.max)
}

// loadGraphNow returns the space's snapshot of this version, reading it (and caching it)
// unless held. A read of the same space already under way, in the background or for
// another recall, is waited for rather than run twice; no other space's read is.
func (s *Store) loadGraphNow(ctx context.Context, space, version string) (*spaceGraph, error) {
	c := &s.graphs
	for {
		if g := c.get(space, version); g != nil {
			return g, nil
		}
		r, first := c.startRead(space)
		if first {
			s.runRead(ctx, space, r)
			return r.g, r.err
		}
		select {
		case <-r.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if r.err == nil && r.g.version == version {
			return r.g, nil
		}
		// That read failed (its caller's context ended) or found another version: read again.
	}
}

// GraphStats describes a space's snapshot as LoadGraph read it; zero when the cache does
// not admit the space.
type GraphStats struct {
	Memories, Edges int
	Load            time.Duration
}

// LoadGraph reads the space's snapshot now, when the cache admits the space, and says what
// it holds: the recalls of a space above GraphSyncMax would otherwise use the statements
// until it is read in the background (bench scale --warm-graph). Other spaces' recalls
// do not wait for it.
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
	took := time.Since(started)
	g.mu.RLock()
	defer g.mu.RUnlock()
	return GraphStats{Memories: len(g.at), Edges: len(g.edges), Load: took}, nil
}

// WarmGraphs reads the snapshots of spaces (those the cache admits) in the background, one
// after the other, as a server starts (REALM_GRAPH_WARM): a large space's recalls expand
// from it minutes sooner than after a first recall started its read. No recall waits for
// them; errors are logged.
func (s *Store) WarmGraphs(spaces []string) {
	if len(spaces) == 0 {
		return
	}
	go func() {
		for _, space := range spaces {
			ctx, cancel := context.WithTimeout(inBackground(context.Background()), graphLoadTimeout)
			st, err := s.LoadGraph(ctx, space)
			cancel()
			if err != nil {
				log.Warn().Err(err).Str("space", space).Msg("warming the space's graph snapshot failed; expansion reads the graph by statements")
				continue
			}
			if st.Memories == 0 {
				log.Warn().Str("space", space).Msg("no graph snapshot warmed: no such space, or none of its memories, or more than REALM_GRAPH_CACHE")
				continue
			}
			log.Info().Str("space", space).Int("memories", st.Memories).Int("edges", st.Edges).Dur("took", st.Load).Msg("graph snapshot warmed")
		}
	}()
}

// GraphCurrent: the space's snapshot of its graph version now is held, so its recalls
// expand from it (bench scale checks that it followed the reconsolidations).
func (s *Store) GraphCurrent(ctx context.Context, space string) (bool, error) {
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		return false, err
	}
	if err := s.graphs.awaitFollow(ctx, space); err != nil {
		return false, err
	}
	return s.graphs.get(space, counts.GraphVersion) != nil, nil
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

// Why a recall of a space the cache admits expands by the statements, its snapshot not
// held or of another version (Store.RecallsWithoutSnapshot).
const (
	SnapshotReading   = "reading"   // it is being read: the first time, or again after a write
	SnapshotPaused    = "paused"    // its next read waits for the reload pause (graphReloadPause)
	SnapshotFollowing = "following" // a write of this process is under way, which it will follow
)

// SnapshotReasons are the reasons of RecallsWithoutSnapshot.
var SnapshotReasons = []string{SnapshotReading, SnapshotPaused, SnapshotFollowing}

// loadInBackground reads the space's snapshot in the background, unless one is being
// read, or the last one ended less than graphReloadPause times its duration ago, or a
// write that the snapshot will follow is under way; errors are logged, and the recalls go
// on with the statements. It says which, and in how long a read may start when paused.
func (s *Store) loadInBackground(space string) (why string, next time.Duration) {
	c := &s.graphs
	c.mu.Lock()
	next, following := time.Until(c.notBefore[space]), c.following[space] > 0
	c.mu.Unlock()
	if following {
		return SnapshotFollowing, 0
	}
	if next > 0 {
		return SnapshotPaused, next
	}
	r, first := c.startRead(space)
	if !first {
		return SnapshotReading, 0
	}
	go func() {
		ctx, cancel := context.WithTimeout(inBackground(context.Background()), graphLoadTimeout)
		defer cancel()
		started := time.Now()
		s.runRead(ctx, space, r)
		if r.err != nil {
			log.Warn().Err(r.err).Str("space", space).Msg("reading the space's graph snapshot failed; expansion reads the graph by statements")
			return
		}
		took := time.Since(started)
		c.mu.Lock()
		if c.notBefore == nil {
			c.notBefore = map[string]time.Time{}
		}
		c.pruneLapsed(time.Now())
		c.notBefore[space] = time.Now().Add(graphReloadPause * took)
		c.mu.Unlock()
		log.Debug().Str("space", space).Int("memories", len(r.g.nodes)).Int("edges", len(r.g.edges)).Dur("took", took).Msg("graph snapshot read")
	}()
	return SnapshotReading, 0
}

// snapshotLogEvery is the least time between two log lines of a space's recalls without
// its snapshot for one reason: a space written all the time has such a recall every time.
const snapshotLogEvery = time.Minute

// snapshotMiss is a space and why its recalls go without its snapshot.
type snapshotMiss struct{ space, why string }

// withoutSnapshot counts a recall of the space expanded by the statements, for why, and
// logs it unless a line of the space for the same reason was written less than
// snapshotLogEvery ago or, paused, in the same reload pause: a line a minute at most for
// each reason, one a pause when longer.
func (c *graphCache) withoutSnapshot(space, why string, next time.Duration) {
	now := time.Now()
	c.mu.Lock()
	if c.without == nil {
		c.without, c.quietUntil = map[string]int64{}, map[snapshotMiss]time.Time{}
	}
	c.without[why]++
	miss := snapshotMiss{space, why}
	quiet := now.Before(c.quietUntil[miss])
	if !quiet {
		c.pruneLapsed(now)
		c.quietUntil[miss] = now.Add(max(next, snapshotLogEvery))
	}
	c.mu.Unlock()
	if !quiet {
		log.Info().Str("space", space).Str("reason", why).Dur("next_read_in", next).
			Msg("recall expanded by statements, slower: the space's graph snapshot is not current")
	}
}

// pruneLapsed forgets the reload pauses and log silences that have lapsed, which act as
// if absent: kept, they would hold an entry for every space ever read or logged.
// c.mu is held.
func (c *graphCache) pruneLapsed(now time.Time) {
	maps.DeleteFunc(c.notBefore, func(_ string, t time.Time) bool { return !now.Before(t) })
	maps.DeleteFunc(c.quietUntil, func(_ snapshotMiss, t time.Time) bool { return !now.Before(t) })
}

// graphCache holds the snapshots of recently expanded spaces, at most max memories in all;
// the least recently used spaces go first.
type graphCache struct {
	max int
	mu  sync.Mutex
	// reading: the reads under way, one a space at most. Each space has its own, so that
	// a large space's read (minutes at 100,000 memories) holds up no other space's recall.
	reading map[string]*graphRead
	// notBefore: when a space's snapshot may next be read in the background (a space
	// written to all the time is not read all the time).
	notBefore map[string]time.Time
	// without: the recalls expanded by the statements by why (withoutSnapshot);
	// quietUntil: when each space's next such recall may be logged, for each reason.
	without    map[string]int64
	quietUntil map[snapshotMiss]time.Time
	// following: the writes of this process under way to each space whose snapshot is
	// held, which the snapshot will follow (writing): a read meanwhile would be useless.
	following map[string]int
	// backgroundFollow: the last follow of each space started in the background
	// (followInBackground), closed when it ends.
	backgroundFollow map[string]chan struct{}
	spaces           map[string]*spaceGraph
	clock            int64
	// Set by tests: beforeRead is called as a read of a space's snapshot begins; page, when
	// not 0, is the memories a page instead of graphPage.
	beforeRead func(space string)
	page       int
}

// graphRead is one read of a space's snapshot; done is closed once g or err is set.
type graphRead struct {
	done chan struct{}
	g    *spaceGraph
	err  error
}

// startRead returns the read of the space's snapshot under way, or a new one (first) that
// the caller must run (runRead).
func (c *graphCache) startRead(space string) (r *graphRead, first bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.reading[space]; r != nil {
		return r, false
	}
	if c.reading == nil {
		c.reading = map[string]*graphRead{}
	}
	r = &graphRead{done: make(chan struct{})}
	c.reading[space] = r
	return r, true
}

// runRead reads the space's snapshot for r, caches it, and ends r.
func (s *Store) runRead(ctx context.Context, space string, r *graphRead) {
	c := &s.graphs
	if c.beforeRead != nil {
		c.beforeRead(space)
	}
	r.g, r.err = s.loadGraph(ctx, space)
	if r.err == nil && r.g.version != "" {
		c.put(r.g)
	}
	c.mu.Lock()
	delete(c.reading, space)
	c.mu.Unlock()
	close(r.done)
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

// put caches g, unless the snapshot held of its space is of the same version (it
// followed the writes that a recall with older counts had g read for).
func (c *graphCache) put(g *spaceGraph) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.spaces == nil {
		c.spaces = map[string]*spaceGraph{}
	}
	if held := c.spaces[g.space]; held != nil && held.version == g.version {
		return
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

// spaceGraph is one space's memory graph at one version (version is read and set under
// graphCache.mu). It changes only when it follows a write of this process (followWrite):
// the change is prepared under follow (one follow at a time), beside the recalls, then
// put in place under mu, which expansion holds to read.
type spaceGraph struct {
	follow         sync.Mutex
	mu             sync.RWMutex
	space, version string
	nodes          []graphNode
	at             map[string]int32 // memory id → index in nodes
	edges          []graphEdge      // some left out of every adjacency list (deleted) once it followed a write
	names          map[string]string
	used           int64
	// recalled: a recall expanded from it since it was read or followed an ingestion
	// (graphMove.recalledOnly).
	recalled atomic.Bool
	// The sources of memories it leaves them out of (leftOut), as MemorySources read them
	// for a recall, kept current by the merges it follows (followSources); a speaker's
	// entity derives from ~39,000 observations at 100,000 memories, and each recall that
	// reached it read them all again (5–38 ms).
	store     *Store
	sourcesMu sync.Mutex
	sourcesOf map[string][]string
}

// MemorySources is Store.MemorySources from the sources held, reading the others (and
// keeping them). The lists returned are shared: not to be changed.
func (g *spaceGraph) MemorySources(ctx context.Context, space string, ids []string) (map[string][]string, error) {
	out := map[string][]string{}
	var missing []string
	g.sourcesMu.Lock()
	for _, id := range ids {
		if src, ok := g.sourcesOf[id]; ok {
			out[id] = src
		} else {
			missing = append(missing, id)
		}
	}
	g.sourcesMu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	read, err := g.store.MemorySources(ctx, space, missing)
	if err != nil {
		return nil, err
	}
	g.sourcesMu.Lock()
	defer g.sourcesMu.Unlock()
	if g.sourcesOf == nil {
		g.sourcesOf = map[string][]string{}
	}
	for id, src := range read {
		out[id] = src
		g.sourcesOf[id] = src
	}
	return out, nil
}

// followSources brings the sources held along with a write the snapshot followed: a
// memory merged into gets the observations merged into it, in order, unless it holds
// them already, up to realm.SourcesMax (integration_write.cypher appends them so); any
// other memory read again or deleted is forgotten (read again when asked).
func (g *spaceGraph) followSources(move graphMove) {
	g.sourcesMu.Lock()
	defer g.sourcesMu.Unlock()
	for _, id := range slices.Concat(move.ids, move.gone) {
		src, held := g.sourcesOf[id]
		if !held {
			continue
		}
		obs, merged := move.merged[id]
		if !merged {
			delete(g.sourcesOf, id)
			continue
		}
		for _, o := range obs {
			if len(src) < realm.SourcesMax && !slices.Contains(src, o) {
				src = append(src, o) // past the length of the lists returned before
			}
		}
		g.sourcesOf[id] = src
	}
}

type graphNode struct {
	node     realm.Node // without embedding and access stats
	emb      []float32
	leftOut  bool  // Reached.SourcesLeftOut
	degree   int64 // its relationships less its provenance edges and repeats let go (REPEAT_OF)
	adjacent []int32
	heavy    []int32 // adjacent by weight, heaviest first, ties by edge id (nil past HubScan edges)
}

type graphEdge struct {
	edge       realm.Edge
	relType    string
	start, end int32
	key        string // relKey
}

// graphPage is how many memories a statement of a snapshot's read reads
// (graph_snapshot.cypher).
const graphPage = 5000

// loadGraph reads the space's snapshot (graph_snapshot.cypher), a page of memories a
// statement, each page decoded as it streams: collected whole first, the rows of 100,000
// memories held every embedding as a list of boxed numbers (RSS 1.8 GiB). The pages are
// of one graph version, the snapshot's; if a write moved it between them, the snapshot
// has no version (it is not kept).
func (s *Store) loadGraph(ctx context.Context, space string) (*spaceGraph, error) {
	b := &graphBuilder{g: &spaceGraph{space: space, at: map[string]int32{}, names: map[string]string{}, store: s}}
	versions := map[string]bool{}
	page := cmp.Or(s.graphs.page, graphPage)
	for after := ""; ; {
		var rows []graphRow
		params := map[string]any{"space": space, "inline_sources": InlineSources, "after": after, "page": page}
		err := s.readEach(ctx, qGraphSnapshot, params, func() func(*neo4j.Record) error {
			rows = rows[:0]
			return func(r *neo4j.Record) error {
				versions[str(r, "version")] = true
				rows = append(rows, b.g.decode(r))
				return nil
			}
		})
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			b.add(row)
		}
		if len(rows) < page {
			break
		}
		after = rows[len(rows)-1].node.node.ID
	}
	for v := range versions {
		b.g.version = v
	}
	if len(versions) > 1 {
		b.g.version = ""
	}
	return b.finish(), nil
}

// graphBuilder builds a snapshot from graph_snapshot.cypher's rows: each row's memory as it
// comes, its edges once every memory is in (an edge's end may come later).
type graphBuilder struct {
	g        *spaceGraph
	ends     []string   // per edge of g.edges until finish, the id of its end
	adjacent [][]string // per memory, the keys of its edges
}

// add adds one row: a memory and the edges that start at it.
func (b *graphBuilder) add(row graphRow) {
	g := b.g
	at := int32(len(g.nodes))
	g.at[row.node.node.ID] = at
	g.nodes = append(g.nodes, row.node)
	b.adjacent = append(b.adjacent, row.adjacent)
	for i, e := range row.out {
		e.start = at
		g.edges = append(g.edges, e)
		b.ends = append(b.ends, row.ends[i])
	}
}

// finish joins the edges to their ends (leaving out those whose end is not of the space:
// no expansion reads them) and to the memories' adjacency lists.
func (b *graphBuilder) finish() *spaceGraph {
	g := b.g
	edges := make([]graphEdge, 0, withRoom(len(g.edges)))
	index := make(map[string]int32, len(g.edges))
	for i, e := range g.edges {
		end, ok := g.at[b.ends[i]]
		if !ok {
			continue
		}
		e.end, e.edge.To = end, g.nodes[end].node.ID
		index[e.key] = int32(len(edges))
		edges = append(edges, e)
	}
	g.edges = edges
	for i, keys := range b.adjacent {
		n := &g.nodes[i]
		n.adjacent = g.adjacency(keys, index)
		orderHeavy(n, g.edge)
	}
	if cap(g.nodes) > withRoom(len(g.nodes)) { // appended one by one: up to twice the room
		g.nodes = append(make([]graphNode, 0, withRoom(len(g.nodes))), g.nodes...)
	}
	return g
}

// withRoom is the capacity a snapshot's list of n memories or edges is given: room for
// the memories and edges that followed writes add (commit), so that the first of them do
// not copy the whole lists (100,000 memories and 494,000 edges at 100k) under the
// snapshot's lock.
func withRoom(n int) int {
	return n + n/64 + 16
}

// adjacency is the edges of keys found in index, in their order.
func (g *spaceGraph) adjacency(keys []string, index map[string]int32) []int32 {
	adjacent := make([]int32, 0, len(keys))
	for _, key := range keys {
		if e, ok := index[key]; ok {
			adjacent = append(adjacent, e)
		}
	}
	return adjacent
}

// graphRow is one row of graph_snapshot.cypher or graph_snapshot_memories.cypher: a
// memory, the keys of its edges, and the edges that start at it (ends unset but their ids
// in ends).
type graphRow struct {
	node     graphNode
	adjacent []string
	out      []graphEdge
	ends     []string
	lean     bool // graph_snapshot_memories read no edge of it ($lean)
}

func (g *spaceGraph) decode(r *neo4j.Record) graphRow {
	emb, _ := r.Get("embedding")
	left, _ := r.Get("sources_left_out")
	leftOut, _ := left.(bool)
	row := graphRow{node: graphNode{node: nodeOf(propsOf(r, "node")), emb: vector32(emb), leftOut: leftOut, degree: num(r, "degree")}}
	adj, _ := r.Get("adjacent")
	row.lean = adj == nil
	row.adjacent = make([]string, 0, len(asList(adj)))
	for _, k := range asList(adj) {
		key, _ := k.(string)
		row.adjacent = append(row.adjacent, relKey(key))
	}
	out, _ := r.Get("out")
	for _, x := range asList(out) {
		p, _ := x.(map[string]any)
		if !weighted(p["weight"]) {
			continue // no expansion reads an edge without a weight
		}
		e := edgeFromProps(p)
		e.From, e.Layer = row.node.node.ID, g.intern(e.Layer)
		row.out = append(row.out, graphEdge{edge: e, relType: g.intern(propString(p, "type")), end: -1, key: relKey(propString(p, "key"))})
		row.ends = append(row.ends, propString(p, "end"))
	}
	return row
}

// intern returns one string per edge type and layer: a snapshot of 100,000 memories holds
// about 500,000 edges.
func (g *spaceGraph) intern(s string) string {
	if v, ok := g.names[s]; ok {
		return v
	}
	g.names[s] = s
	return s
}

// relKey is an edge's key as a snapshot keeps it: its elementId from the last colon on (its
// number in the database; before it, the database's id, the same for every edge), copied
// out of the row's string.
func relKey(elementID string) string {
	return strings.Clone(elementID[strings.LastIndexByte(elementID, ':')+1:])
}

//go:embed queries/graph_snapshot_memories.cypher
var graphSnapshotMemoriesCypher string

var qGraphSnapshotMemories = newQuery("graph_snapshot_memories", graphSnapshotMemoriesCypher)

// followWrite brings the space's snapshot along with a write of this process that moved
// the space's graph_version from move.before to move.after, touched the memories move.ids
// only (those it added, changed or ended, the ends of every edge it wrote or deleted, the
// neighbours of a memory it deleted) and deleted the memories move.gone: if the snapshot
// held is of version before, the memories touched are read again and put in place of
// theirs (or added), those deleted taken out, and the snapshot is of version after,
// without reading the space again (30 s at 100,000 memories). Otherwise, or when that
// read fails, the snapshot is left as it was, stale as after another process's write.
// The write's caller marks it from its start to the follow's end (graphCache.writing).
func (s *Store) followWrite(ctx context.Context, space string, move graphMove) {
	if s.graphs.awaitFollow(ctx, space) != nil {
		return
	}
	s.followNow(ctx, space, move)
}

// followInBackground is followWrite in a goroutine of its own, once the follows of the
// space started before it in the background have ended; done is called as it ends. A
// recall meanwhile waits for it (Expander), as do the follows of the writes after it.
// The writer's caller thus does not wait for the read of the memories it touched: 4.4 ms
// of the 14.1 an apply of 20 edits took at 1,000 memories on a loaded machine
// (docs/benchmarks/reconsolidation-apply.md).
func (s *Store) followInBackground(space string, move graphMove, done func()) {
	c := &s.graphs
	c.mu.Lock()
	before := c.backgroundFollow[space]
	mine := make(chan struct{})
	if c.backgroundFollow == nil {
		c.backgroundFollow = map[string]chan struct{}{}
	}
	c.backgroundFollow[space] = mine
	c.mu.Unlock()
	go func() {
		defer func() {
			c.mu.Lock()
			if c.backgroundFollow[space] == mine {
				delete(c.backgroundFollow, space)
			}
			c.mu.Unlock()
			done()
			close(mine)
		}()
		if before != nil {
			<-before
		}
		ctx, cancel := context.WithTimeout(inBackground(context.Background()), graphLoadTimeout)
		defer cancel()
		s.followNow(ctx, space, move)
	}()
}

// awaitFollow waits for the follow of the space under way in the background, if any
// (followInBackground).
func (c *graphCache) awaitFollow(ctx context.Context, space string) error {
	c.mu.Lock()
	inFlight := c.backgroundFollow[space]
	c.mu.Unlock()
	if inFlight == nil {
		return nil
	}
	select {
	case <-inFlight:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// followNow is followWrite once no follow of the space runs in the background.
func (s *Store) followNow(ctx context.Context, space string, move graphMove) {
	c := &s.graphs
	g := c.get(space, move.before)
	if g == nil || move.before == "" || move.after == "" || move.recalledOnly && !g.recalled.Swap(false) {
		return
	}
	started := time.Now()
	recs, err := s.read(ctx, qGraphSnapshotMemories, map[string]any{"space": space, "ids": move.ids, "lean": orEmpty(move.lean), "inline_sources": InlineSources})
	if err != nil {
		log.Warn().Err(err).Str("space", space).Msg("reading memories a write touched failed; the space's graph snapshot is read again")
		return
	}
	read := time.Since(started)
	g.follow.Lock()
	defer g.follow.Unlock()
	if c.get(space, move.before) != g {
		return
	}
	f, ok := g.prepare(move.ids, move.gone, recs)
	if !ok {
		return
	}
	prepared := time.Since(started) - read
	g.mu.Lock()
	locked := time.Now()
	g.commit(f)
	g.followSources(move)
	c.mu.Lock()
	g.version = move.after
	c.mu.Unlock()
	held := time.Since(locked)
	g.mu.Unlock()
	log.Debug().Str("space", space).Int("memories", len(recs)).Int("deleted", len(move.gone)).Dur("read", read).Dur("prepared", prepared).Dur("locked", held).Msg("graph snapshot followed a write")
}

// writing marks a write of this process to the space, from its start to the end of
// followWrite (call the function returned then): meanwhile a recall of the version it
// writes expands by the statements and starts no read of the space, which the follow
// would make useless (Expander, loadInBackground). Without a snapshot of the space held,
// nothing is marked.
func (c *graphCache) writing(space string) (done func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.spaces[space] == nil {
		return func() {}
	}
	if c.following == nil {
		c.following = map[string]int{}
	}
	c.following[space]++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.following[space]--; c.following[space] <= 0 {
			delete(c.following, space)
		}
	}
}

// isFollowing: a write of this process to the space is marked (writing).
func (c *graphCache) isFollowing(space string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.following[space] > 0
}

// followed is what following a write changes in a snapshot (spaceGraph.prepare), for
// commit to put in place.
type followed struct {
	gone  []string            // the memories deleted that the snapshot held
	added []string            // the memories new to it, at indices len(nodes), len(nodes)+1, …
	nodes map[int32]graphNode // the memories read again or added, by index
	// changed: the edges it holds, as read again; by pointer, because the sort of a
	// memory's edges (orderHeavy) looks them up at every comparison, and taking a copy's
	// address allocated each time: 85% of the CPU of following a write that touched a
	// memory of 400 edges, 1.2 ms a follow (0.25 ms now).
	changed map[int32]*graphEdge
	edges   []graphEdge // new edges, at indices len(edges), len(edges)+1, …
}

// prepare is what putting the rows of the memories ids, read again, in place of theirs
// changes (followWrite): their properties, their adjacency lists, the edges that start at
// them (an edge of the snapshot by its key, else a new one); a memory the snapshot does
// not hold is added, and an edge deleted is left out of its ends' lists. A memory of gone
// leaves the snapshot (no list holds its edges once its neighbours, in ids, are read
// again). A lean row (graph_snapshot_memories's $lean) keeps the memory's edges as they
// were. ok is false unless every memory of ids the snapshot holds was read (an id neither
// held nor read is of no memory of the space), none of gone was, and every lean one is held.
// It changes nothing of g that expansion reads (only the interned names), so it runs
// beside recalls, under g.follow only; commit then takes g.mu for the assignments.
func (g *spaceGraph) prepare(ids, gone []string, recs []*neo4j.Record) (f *followed, ok bool) {
	rows := make([]graphRow, 0, len(recs))
	read := make(map[string]bool, len(recs))
	for _, r := range recs {
		row := g.decode(r)
		rows = append(rows, row)
		read[row.node.node.ID] = true
	}
	for _, id := range ids {
		if _, held := g.at[id]; held && !read[id] {
			return nil, false
		}
	}
	for _, row := range rows {
		if _, held := g.at[row.node.node.ID]; row.lean && !held {
			return nil, false // a memory new to the snapshot comes with its edges
		}
	}
	f = &followed{nodes: make(map[int32]graphNode, len(rows)), changed: map[int32]*graphEdge{}}
	for _, id := range gone {
		if read[id] {
			return nil, false
		}
		if _, held := g.at[id]; held {
			f.gone = append(f.gone, id)
		}
	}
	added := map[string]int32{} // the new memories first: an edge may end at one
	for _, row := range rows {
		if _, held := g.at[row.node.node.ID]; !held {
			added[row.node.node.ID] = int32(len(g.nodes) + len(f.added))
			f.added = append(f.added, row.node.node.ID)
		}
	}
	at := func(id string) (int32, bool) {
		if n, ok := added[id]; ok {
			return n, true
		}
		n, ok := g.at[id]
		return n, ok && !slices.Contains(f.gone, id)
	}
	edge := func(e int32) *realm.Edge {
		if x, ok := f.changed[e]; ok {
			return &x.edge
		}
		if int(e) >= len(g.edges) {
			return &f.edges[int(e)-len(g.edges)].edge
		}
		return &g.edges[e].edge
	}
	index := map[string]int32{} // the edges of those memories, by key
	for _, row := range rows {
		if n, held := g.at[row.node.node.ID]; held && !row.lean {
			for _, e := range g.nodes[n].adjacent {
				index[g.edges[e].key] = e
			}
		}
	}
	for _, row := range rows {
		start, _ := at(row.node.node.ID)
		for i, e := range row.out {
			end, ok := at(row.ends[i])
			if !ok {
				continue
			}
			e.start, e.end, e.edge.To = start, end, row.ends[i]
			switch x, ok := index[e.key]; {
			case !ok:
				index[e.key] = int32(len(g.edges) + len(f.edges))
				f.edges = append(f.edges, e)
			case int(x) < len(g.edges):
				f.changed[x] = &e
			default:
				f.edges[int(x)-len(g.edges)] = e
			}
		}
	}
	for _, row := range rows {
		n := row.node
		x, _ := at(n.node.ID)
		if row.lean { // its edges as they were
			n.adjacent, n.heavy = g.nodes[x].adjacent, g.nodes[x].heavy
		} else {
			n.adjacent = g.adjacency(row.adjacent, index)
			orderHeavy(&n, edge)
		}
		f.nodes[x] = n
	}
	return f, true
}

// commit puts what prepare found in place, under g.mu.
func (g *spaceGraph) commit(f *followed) {
	for _, id := range f.gone {
		g.nodes[g.at[id]] = graphNode{}
		delete(g.at, id)
	}
	for _, id := range f.added {
		g.at[id] = int32(len(g.nodes))
		g.nodes = append(g.nodes, graphNode{})
	}
	for e, x := range f.changed {
		g.edges[e] = *x
	}
	g.edges = append(g.edges, f.edges...)
	for n, x := range f.nodes {
		g.nodes[n] = x
	}
}

// orderHeavy sets n's heavy list: its edges by heaviestFirst, for a memory of at most
// HubScan edges (heaviest reads a larger one's first HubScan edges in the store's order
// instead). A hub's, never read, would cost a sort of its 40,000 edges at every write
// that touches it.
func orderHeavy(n *graphNode, edge func(int32) *realm.Edge) {
	n.heavy = nil
	if len(n.adjacent) <= HubScan {
		n.heavy = slices.Clone(n.adjacent)
		heaviestFirst(n.heavy, edge)
	}
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
	heaviestFirst(edges, g.edge)
}

// edge is edge e of the snapshot.
func (g *spaceGraph) edge(e int32) *realm.Edge {
	return &g.edges[e].edge
}

// heaviestFirst orders edges, read by edge, by weight, heaviest first, ties by edge id.
func heaviestFirst(edges []int32, edge func(int32) *realm.Edge) {
	slices.SortStableFunc(edges, func(a, b int32) int {
		x, y := edge(a), edge(b)
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
	g.mu.RLock()
	defer g.mu.RUnlock()
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
	g.mu.RLock()
	defer g.mu.RUnlock()
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
