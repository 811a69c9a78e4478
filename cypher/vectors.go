package cypher

import (
	"cmp"
	"context"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog/log"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/internal/vec"
)

// The write path's exact similarity search (N_sim by vector, REALM.md §2 step 3) of a
// space small enough to scan (ExactScanMax) runs here, in Go, over the space's
// embeddings kept in memory, instead of in Cypher (memory_similar_exact.cypher), where
// one cosine cost about 30 µs and a run's scan most of its time in Neo4j. A space's
// embeddings are loaded once (memory_embeddings.cypher), then kept current by the writes
// of this process (vectorCache.written); they are used only while the space's
// fingerprint (SpaceState, read with every neighbourhood) is the one they hold, and read
// again when it is not (another process wrote to the space, or a memory was deleted) or
// when the space has no version yet (the write path never wrote to it).

// maxCachedVectors bounds the embeddings kept, all spaces together (384 floats each:
// about 300 MiB for MiniLM); the least recently used spaces go first, never the one
// just used.
const maxCachedVectors = 200_000

// vectorCache holds the embeddings of recently searched spaces.
type vectorCache struct {
	mu     sync.Mutex
	spaces map[string]*spaceVectors
	reads  backgroundReads // of spaces' embeddings (refresh)
	clock  int64           // counts uses: the least recently used space has the smallest used
	// reading holds, per space whose embeddings are being read, this process's writes to
	// it since the read began (written), for the read to catch up with.
	reading ownWriteLog
}

// spaceVectors is the embeddings of one space's memories in one state. It is never
// changed once in the cache: a write makes a new one (with), which shares its slices and
// appends past their lengths, so that a write costs what it changed, not the space's
// size (as the keyword index does: spaceTexts.with).
type spaceVectors struct {
	state SpaceState
	ids   []string
	vecs  [][]float32
	norms []float64      // squared norms of vecs, as realm.Cosine sums them
	at    map[string]int // id → position, as read or last settled: never changed
	// recent is id → position for the memories written since at was made, which a
	// write copies; dead the positions of memories written again at a later one.
	recent map[string]int
	dead   []int
	ivf    *ivfIndex   // above heldScanMax memories: the lists searched (ivf.go)
	next   atomic.Bool // a successor was made from this one: no other may be (with)
	used   int64       // vectorCache.clock when last used
}

// position is where v holds the embedding of memory id.
func (v *spaceVectors) position(id string) (int, bool) {
	if i, ok := v.recent[id]; ok {
		return i, true
	}
	i, ok := v.at[id]
	return i, ok
}

// live is, per position, whether it holds a memory's embedding (nil: all do).
func (v *spaceVectors) live() []bool {
	if len(v.dead) == 0 {
		return nil
	}
	live := slices.Repeat([]bool{true}, len(v.ids))
	for _, i := range v.dead {
		live[i] = false
	}
	return live
}

// vectors returns the embeddings of space in state, loading them (in tx) when the cache
// holds another state. The ones loaded may be of a later state than asked (a write
// committed meanwhile); the write's check of the space's state catches that.
func (c *vectorCache) vectors(ctx context.Context, tx neo4j.ManagedTransaction, space string, state SpaceState) (*spaceVectors, error) {
	c.mu.Lock()
	if v := c.spaces[space]; v != nil && v.state == state && state.Version != "" {
		c.clock++
		v.used = c.clock
		c.mu.Unlock()
		return v, nil
	}
	c.mu.Unlock()
	recs, err := collect(ctx, tx, qMemoryEmbeddings, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return &spaceVectors{}, err
	}
	v := vectorsOf(recs)
	c.put(space, v)
	return v, nil
}

// vectorsOf decodes the rows of memory_embeddings.cypher (at least one).
func vectorsOf(recs []*neo4j.Record) *spaceVectors {
	v := &spaceVectors{state: spaceStateOf(recs[0])}
	for _, r := range recs {
		emb, _ := r.Get("embedding")
		v.ids = append(v.ids, str(r, "id"))
		v.vecs = append(v.vecs, vector32(emb))
	}
	v.index()
	if int64(len(v.vecs)) > heldScanMax {
		v.ivf = trainIVF(v.vecs, nil)
	}
	return v
}

// refresh reads the embeddings of space in the background unless a read of them is
// running (load).
func (c *vectorCache) refresh(s *Store, space string) {
	c.reads.start(space, func(ctx context.Context) {
		if err := c.load(ctx, s, space); err != nil {
			log.Warn().Err(err).Str("space", space).Msg("embeddings not read; vector searches stay in Cypher")
		}
	})
}

// vectorsRead, when set, runs after a read's statement (tests write there).
var vectorsRead func()

// load reads the embeddings of space and keeps them, caught up with the writes this
// process made to the space meanwhile (catchUp), when the space has a version and every
// write that overlapped the read is one of them.
func (c *vectorCache) load(ctx context.Context, s *Store, space string) error {
	own, done := c.reading.begin(&c.mu, space)
	defer done()
	recs, err := s.read(ctx, qMemoryEmbeddings, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return err
	}
	if vectorsRead != nil {
		vectorsRead()
	}
	v := vectorsOf(recs)
	if v.state.Version == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := catchUp(v, v.state, own.writes, str(recs[len(recs)-1], "after"), func(v *spaceVectors, w ownWrite) (*spaceVectors, bool) {
		return v.with(w.after, w.ins), true
	})
	if ok {
		c.putLocked(space, v)
	}
	return nil
}

// held returns the state of the embeddings of space held (none: the zero state).
func (c *vectorCache) held(space string) SpaceState {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v := c.spaces[space]; v != nil {
		return v.state
	}
	return SpaceState{}
}

// VectorsHeld says whether this process holds the embeddings of space for its current
// state, so that its write path searches them in Go (vectors.go, ivf.go) and not by
// statement, and whether a read of them is running in the background (started by the
// write path once the space outgrows the reads in its transactions; seconds at 100,000
// memories).
func (s *Store) VectorsHeld(ctx context.Context, space string) (held, reading bool, err error) {
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		return false, false, err
	}
	return s.vectors.cached(space, SpaceState{N: counts.InSpace, Version: counts.Version}) != nil, s.vectors.reads.busy(space), nil
}

// cached returns the embeddings of space when the cache holds them for state, else nil.
func (c *vectorCache) cached(space string, state SpaceState) *spaceVectors {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v := c.spaces[space]; v != nil && v.state == state && state.Version != "" {
		return v
	}
	return nil
}

// index computes norms and at from ids and vecs.
func (v *spaceVectors) index() {
	v.norms = make([]float64, len(v.vecs))
	v.at = make(map[string]int, len(v.ids))
	for i, e := range v.vecs {
		v.norms[i] = vec.SquaredNorm(e)
		v.at[v.ids[i]] = i
	}
}

// put stores v as space's embeddings, evicting the least recently used spaces beyond
// maxCachedVectors.
func (c *vectorCache) put(space string, v *spaceVectors) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(space, v)
}

// putLocked is put with c.mu held.
func (c *vectorCache) putLocked(space string, v *spaceVectors) {
	if c.spaces == nil {
		c.spaces = map[string]*spaceVectors{}
	}
	c.clock++
	v.used = c.clock
	c.spaces[space] = v
	evictOldest(c.spaces, space, maxCachedVectors, func(s *spaceVectors) (int, int64) { return len(s.ids), s.used })
}

// evictOldest removes the least recently used spaces but keep until their sizes add up to
// at most max; sizeUsed gives an entry's size and when it was last used.
func evictOldest[T any](spaces map[string]T, keep string, max int, sizeUsed func(T) (size int, used int64)) {
	total := 0
	for _, x := range spaces {
		n, _ := sizeUsed(x)
		total += n
	}
	for total > max && len(spaces) > 1 {
		oldest, oldestUsed := "", int64(0)
		for id, x := range spaces {
			if _, used := sizeUsed(x); id != keep && (oldest == "" || used < oldestUsed) {
				oldest, oldestUsed = id, used
			}
		}
		n, _ := sizeUsed(spaces[oldest])
		total -= n
		delete(spaces, oldest)
	}
}

// drop forgets space's embeddings (its memories were re-embedded).
func (c *vectorCache) drop(space string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.spaces, space)
}

// written records the writes of one transaction to space: before is the state its
// lock read, after the state its writes left. Embeddings held for before get the added
// memories and the merged ones' new embeddings, and hold after; others, and those of a
// space the writes took past the write path's searches (heldSearchMax), are forgotten.
func (c *vectorCache) written(space string, before, after SpaceState, ins []ObservationIntegration) {
	c.mu.Lock()
	old := c.spaces[space]
	c.reading.record(space, ownWrite{before: before, after: after, ins: ins})
	c.mu.Unlock()
	if old == nil {
		return
	}
	var v *spaceVectors
	if old.state == before && (after.N <= heldSearchMax || after.N <= writeScanMax) && old.next.CompareAndSwap(false, true) {
		v = old.with(after, ins) // else the space outgrew the search (or old was followed already): forgotten
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.spaces[space] != old: // read again meanwhile (caught up with this write)
	case v == nil:
		delete(c.spaces, space)
	default:
		c.putLocked(space, v)
	}
}

// with is v in state after the writes ins: the added memories, and the merged ones'
// new embeddings, each at a new position after the others, the position it had before
// (a read that saw the write) dead. It shares v's slices, appending past their lengths:
// the caller makes sure no other successor is made from v (v.next). The positions
// written are settled into at, and the dead ones left out, once they are many.
func (v *spaceVectors) with(after SpaceState, ins []ObservationIntegration) *spaceVectors {
	u := &spaceVectors{state: after, ids: v.ids, vecs: v.vecs, norms: v.norms, at: v.at, recent: maps.Clone(v.recent), dead: v.dead}
	if u.recent == nil {
		u.recent = map[string]int{}
	}
	var changed []int
	set := func(id string, e []float32) {
		if i, ok := u.position(id); ok {
			u.dead = append(u.dead, i)
		}
		u.recent[id] = len(u.ids)
		changed = append(changed, len(u.ids))
		u.ids, u.vecs, u.norms = append(u.ids, id), append(u.vecs, e), append(u.norms, vec.SquaredNorm(e))
	}
	for _, in := range ins {
		for _, n := range in.Adds {
			if len(n.Embedding) > 0 {
				set(n.ID, n.Embedding)
			}
		}
		for _, m := range in.Merges {
			if _, ok := u.position(m.ID); ok && m.Embedding != nil {
				set(m.ID, m.Embedding)
			}
		}
	}
	if len(u.dead) > len(u.ids)/4+settleMin {
		return u.compacted()
	}
	if len(u.recent) > len(u.at)/8+settleMin {
		u.at = maps.Clone(u.at)
		maps.Copy(u.at, u.recent)
		u.recent = map[string]int{}
	}
	switch {
	case v.ivf != nil:
		u.ivf = v.ivf.with(u, changed)
	case int64(len(u.ids)-len(u.dead)) > heldScanMax:
		u.ivf = trainIVF(u.vecs, u.live())
	}
	return u
}

// compacted is v without its dead positions, in new slices, its lists made again.
func (v *spaceVectors) compacted() *spaceVectors {
	live := v.live()
	u := &spaceVectors{state: v.state}
	for i, id := range v.ids {
		if live == nil || live[i] {
			u.ids, u.vecs = append(u.ids, id), append(u.vecs, v.vecs[i])
		}
	}
	u.index()
	if int64(len(u.ids)) > heldScanMax {
		u.ivf = trainIVF(u.vecs, nil)
	}
	return u
}

// nearest is, per embedding, the ids of the k memories most similar to it by
// realm.Cosine, best first, ties by id (as memory_similar_exact.cypher ranks them);
// memories whose embedding has another dimension are left out. A large scan is shared
// among the cores, a range of the memories each, then the embeddings' picks: an
// observation one a call waits on it alone. With lists (above heldScanMax memories), the
// embeddings of their length are searched in them instead, approximately (ivf.go).
func (v *spaceVectors) nearest(embs [][]float32, k int) [][]string {
	out := make([][]string, len(embs))
	var asked, approx []int
	for i, e := range embs {
		switch {
		case len(e) == 0:
		case v.ivf != nil && len(e) == v.ivf.dim:
			approx = append(approx, i)
		default:
			asked = append(asked, i)
		}
	}
	live := v.live()
	if len(approx) > 0 {
		qs := make([][]float32, len(approx))
		for j, i := range approx {
			qs[j] = embs[i]
		}
		for j, found := range v.ivf.search(v, live, qs, k) {
			for _, m := range found {
				out[approx[j]] = append(out[approx[j]], v.ids[m])
			}
		}
	}
	if len(asked) == 0 {
		return out
	}
	qs := make([][]float32, len(asked))
	cosines := make([][]float64, len(asked))
	for j, i := range asked {
		qs[j], cosines[j] = embs[i], make([]float64, len(v.vecs))
	}
	workers := runtime.GOMAXPROCS(0)
	if len(asked)*len(v.vecs) < parallelScan {
		workers = 1
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { v.cosines(qs, cosines, w*len(v.vecs)/workers, (w+1)*len(v.vecs)/workers, true) })
	}
	wg.Wait()
	for w := range workers {
		wg.Go(func() {
			for j := w; j < len(asked); j += workers {
				out[asked[j]] = v.best(qs[j], cosines[j], live, k)
			}
		})
	}
	wg.Wait()
	return out
}

// parallelScan is the number of cosines (embeddings × memories) from which nearest
// shares its scan among the cores.
const parallelScan = 20_000

// best is the ids of the k memories of q's length at live positions (live nil: all)
// with the highest cosines of q, ties by id, given cosines within vec.ApproxError of them: the memories whose cosine could be
// among the k best, those within twice that of the k-th best given, are ranked by their
// cosine computed again, to the bit.
func (v *spaceVectors) best(q []float32, cosines []float64, live []bool, k int) []string {
	type scored struct {
		i     int
		score float64
	}
	better := func(a, b scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return v.ids[a.i] < v.ids[b.i]
	}
	best := make([]scored, 0, k+1)
	for i, e := range v.vecs {
		if len(e) != len(q) || live != nil && !live[i] {
			continue
		}
		best = keepBest(best, scored{i, cosines[i]}, k, better)
	}
	if len(best) == 0 {
		return nil
	}
	from := best[len(best)-1].score - 2*vec.ApproxError(len(q))
	if len(best) < k {
		from = math.Inf(-1)
	}
	query, norm := vec.NewQuery(q), vec.SquaredNorm(q)
	best = best[:0]
	for i, e := range v.vecs {
		if len(e) == len(q) && (live == nil || live[i]) && cosines[i] >= from {
			best = keepBest(best, scored{i, cosine(query.Dot(e), norm, v.norms[i])}, k, better)
		}
	}
	var out []string
	for _, s := range best {
		out = append(out, v.ids[s.i])
	}
	return out
}

// keepBest is best, the k best so far (better first), with s in its place if it is one of
// them.
func keepBest[T any](best []T, s T, k int, better func(a, b T) bool) []T {
	if k <= 0 || len(best) == k && !better(s, best[k-1]) {
		return best
	}
	at, _ := slices.BinarySearchFunc(best, s, func(a, b T) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	best = slices.Insert(best, at, s)
	if len(best) > k {
		best = best[:k]
	}
	return best
}

// SeedByHeldVectors is SeedByExactScan answered in Go from the space's embeddings held
// by this process (the write path's, or read in the background), exactly where the
// vector index is approximate, without a statement for the scan: when they are of the
// state q names (q.SpaceSize memories at q.SpaceVersion) and the space holds at most
// ExactScanMax memories. The cosine of every memory passing q's filters (read from the
// space's keyword index, of the same state), the best q.Limit, ties by id; then their
// properties by id (one statement). held is false, and nothing is searched, when the
// embeddings or the keyword index the filters need are not held: a read of them starts
// in the background, and the caller searches by statement. Nor is anything searched
// with q.Among: SeedAmong scores those memories alone.
func (s *Store) SeedByHeldVectors(ctx context.Context, space string, q SeedQuery) (out []ScoredMemory, held bool, err error) {
	if q.SpaceVersion == "" || q.SpaceSize > ExactScanMax || len(q.Embedding) == 0 || q.Among != nil {
		return nil, false, nil
	}
	state := textKey(q.SpaceSize, q.SpaceVersion)
	v := s.vectors.cached(space, state)
	if v == nil {
		s.vectors.refresh(s, space)
	}
	var t *spaceTexts
	filtered := len(q.Types) > 0 || q.TimeRange != nil
	if filtered {
		if t = s.texts.current(space, state); t == nil {
			s.texts.refresh(s, space)
		}
	}
	if v == nil || filtered && t == nil {
		return nil, false, nil
	}
	cosines := make([]float64, len(v.vecs))
	v.cosines([][]float32{q.Embedding}, [][]float64{cosines}, 0, len(v.vecs), false)
	pass, live := make([]bool, len(v.vecs)), v.live()
	for i, e := range v.vecs {
		pass[i] = len(e) == len(q.Embedding) && (live == nil || live[i])
	}
	if filtered {
		texts := t.live()
		for i, id := range t.ids {
			if j, ok := v.position(id); ok && (texts == nil || texts[i]) && !t.passes(i, q) {
				pass[j] = false
			}
		}
	}
	best := make([]int, 0, len(v.vecs))
	for i := range v.vecs {
		if pass[i] {
			best = append(best, i)
		}
	}
	slices.SortFunc(best, func(a, b int) int {
		if c := cmp.Compare(cosines[b], cosines[a]); c != 0 {
			return c
		}
		return strings.Compare(v.ids[a], v.ids[b])
	})
	best = best[:min(len(best), seedParams(space, q)["limit"].(int))]
	ids := make([]string, len(best))
	for k, i := range best {
		ids[k] = v.ids[i]
	}
	nodes, err := s.memoriesWithVectors(ctx, space, ids, v)
	if err != nil {
		return nil, true, err
	}
	out = make([]ScoredMemory, 0, len(best))
	for k, i := range best {
		if n, ok := nodes[ids[k]]; ok {
			out = append(out, ScoredMemory{Node: n, Score: cosines[i]})
		}
	}
	return out, true, nil
}

// memoriesWithVectors reads the memories of space with the given ids by id, their
// embeddings taken from vs, as nodesByIDs does in a transaction.
func (s *Store) memoriesWithVectors(ctx context.Context, space string, ids []string, vs *spaceVectors) (map[string]realm.Node, error) {
	if len(ids) == 0 {
		return map[string]realm.Node{}, nil
	}
	recs, err := s.read(ctx, qMemoryNeighbours, nodesByIDsParams(space, ids, vs))
	if err != nil {
		return nil, err
	}
	return nodesWithVectors(recs, vs), nil
}

// cosines sets cosines[j][i] to realm.Cosine(qs[j], v.vecs[i]), to the bit, or with
// approx within vec.ApproxError of it, for the memories i in [from, to) whose embedding
// has qs[j]'s length (the others' are left as they were). Four embeddings at a time
// against each memory (vec.Dots4, vec.Dots4Approx): a memory's embedding is read once for
// the four, where reading them was most of the scan's time.
func (v *spaceVectors) cosines(qs [][]float32, cosines [][]float64, from, to int, approx bool) {
	byLength := map[int][]int{}
	for j, q := range qs {
		if len(q) > 0 {
			byLength[len(q)] = append(byLength[len(q)], j)
		}
	}
	for n, js := range byLength {
		for g := 0; g < len(js); g += 4 {
			var raw [4][]float32
			var group [4]vec.Query
			var norms [4]float64
			for l := range 4 {
				raw[l] = qs[js[min(g+l, len(js)-1)]] // a short last group repeats its last
				norms[l] = vec.SquaredNorm(raw[l])
				if !approx {
					group[l] = vec.NewQuery(raw[l])
				}
			}
			var dots [4]float64
			for i := from; i < to; i++ {
				if len(v.vecs[i]) != n {
					continue
				}
				if approx {
					vec.Dots4Approx(&raw, v.vecs[i], &dots)
				} else {
					vec.Dots4(&group, v.vecs[i], &dots)
				}
				for l := 0; l < 4 && g+l < len(js); l++ {
					cosines[js[g+l]][i] = cosine(dots[l], norms[l], v.norms[i])
				}
			}
		}
	}
}

// cosine is realm.Cosine given the dot product and the squared norms, to the bit.
func cosine(dot, na, nb float64) float64 {
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// nodesByIDs reads the memories of space with the given ids (each once), by id, those
// derived from more than InlineSources observations without their sources. With vs (the
// space's embeddings in the state the memories are read in) their embeddings are taken
// from it instead of read (memory_neighbours.cypher).
func nodesByIDs(ctx context.Context, tx neo4j.ManagedTransaction, space string, ids []string, vs *spaceVectors) (map[string]realm.Node, error) {
	if len(ids) == 0 {
		return map[string]realm.Node{}, nil
	}
	recs, err := collect(ctx, tx, qMemoryNeighbours, nodesByIDsParams(space, ids, vs))
	if err != nil {
		return nil, err
	}
	return nodesWithVectors(recs, vs), nil
}

// nodesByIDsParams is the parameters of nodesByIDs' statement (memory_neighbours.cypher).
func nodesByIDsParams(space string, ids []string, vs *spaceVectors) map[string]any {
	ids = slices.Clone(ids)
	slices.SortFunc(ids, strings.Compare)
	return map[string]any{"space": space, "ids": slices.Compact(ids), "embeddings": vs == nil, "inline_sources": InlineSources}
}

// nodesWithVectors decodes the memories nodesByIDs read, by id.
func nodesWithVectors(recs []*neo4j.Record, vs *spaceVectors) map[string]realm.Node {
	nodes := map[string]realm.Node{}
	for _, r := range recs {
		n := nodeOf(propsOf(r, "node"))
		if vs != nil {
			if i, ok := vs.position(n.ID); ok {
				n.Embedding = vs.vecs[i]
			}
		}
		nodes[n.ID] = n
	}
	return nodes
}
