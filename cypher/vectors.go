package cypher

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
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
// about 150 MiB for MiniLM); the least recently used spaces go first.
const maxCachedVectors = 100_000

// vectorCache holds the embeddings of recently searched spaces.
type vectorCache struct {
	mu     sync.Mutex
	spaces map[string]*spaceVectors
	clock  int64 // counts uses: the least recently used space has the smallest used
}

// spaceVectors is the embeddings of one space's memories in one state. It is never
// changed once in the cache: a write makes a new one.
type spaceVectors struct {
	state SpaceState
	ids   []string
	vecs  [][]float32
	norms []float64      // squared norms of vecs, as realm.Cosine sums them
	at    map[string]int // id → index in ids
	used  int64          // vectorCache.clock when last used
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
	r := recs[0]
	v := &spaceVectors{state: spaceStateOf(r)}
	ids, _ := r.Get("ids")
	embs, _ := r.Get("embeddings")
	for i, e := range asList(embs) {
		v.ids = append(v.ids, propStringAt(asList(ids), i))
		v.vecs = append(v.vecs, vector32(e))
	}
	v.index()
	c.put(space, v)
	return v, nil
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

// cached returns the embeddings of space when the cache holds them for state, else nil.
func (c *vectorCache) cached(space string, state SpaceState) *spaceVectors {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v := c.spaces[space]; v != nil && v.state == state && state.Version != "" {
		return v
	}
	return nil
}

func propStringAt(list []any, i int) string {
	if i >= len(list) {
		return ""
	}
	s, _ := list[i].(string)
	return s
}

// index computes norms and at from ids and vecs.
func (v *spaceVectors) index() {
	v.norms = make([]float64, len(v.vecs))
	v.at = make(map[string]int, len(v.ids))
	for i, e := range v.vecs {
		v.norms[i] = squaredNorm(e)
		v.at[v.ids[i]] = i
	}
}

func squaredNorm(e []float32) float64 {
	var n float64
	for _, x := range e {
		n += float64(x) * float64(x)
	}
	return n
}

// put stores v as space's embeddings, evicting the least recently used spaces beyond
// maxCachedVectors.
func (c *vectorCache) put(space string, v *spaceVectors) {
	c.mu.Lock()
	defer c.mu.Unlock()
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
// memories and the merged ones' new embeddings, and hold after; others are forgotten.
func (c *vectorCache) written(space string, before, after SpaceState, ins []ObservationIntegration) {
	c.mu.Lock()
	old := c.spaces[space]
	c.mu.Unlock()
	if old == nil || old.state != before {
		c.drop(space)
		return
	}
	v := &spaceVectors{state: after, ids: slices.Clone(old.ids), vecs: slices.Clone(old.vecs)}
	at := make(map[string]int, len(old.at))
	for id, i := range old.at {
		at[id] = i
	}
	for _, in := range ins {
		for _, n := range in.Adds {
			if len(n.Embedding) > 0 {
				at[n.ID] = len(v.ids)
				v.ids = append(v.ids, n.ID)
				v.vecs = append(v.vecs, n.Embedding)
			}
		}
		for _, m := range in.Merges {
			if i, ok := at[m.ID]; ok && m.Embedding != nil {
				v.vecs[i] = m.Embedding
			}
		}
	}
	v.index()
	c.put(space, v)
}

// nearest is, per embedding, the ids of the k memories most similar to it by
// realm.Cosine, best first, ties by id (as memory_similar_exact.cypher ranks them);
// memories whose embedding has another dimension are left out.
func (v *spaceVectors) nearest(embs [][]float32, k int) [][]string {
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
	out := make([][]string, len(embs))
	cosines := make([]float64, len(v.vecs))
	for j, q := range embs {
		if len(q) == 0 {
			continue
		}
		v.cosines(q, cosines)
		best := make([]scored, 0, k+1)
		for i, e := range v.vecs {
			if len(e) != len(q) {
				continue
			}
			s := scored{i, cosines[i]}
			if len(best) == k && !better(s, best[k-1]) {
				continue
			}
			at, _ := slices.BinarySearchFunc(best, s, func(a, b scored) int {
				if better(a, b) {
					return -1
				}
				return 1
			})
			best = slices.Insert(best, at, s)
			if len(best) > k {
				best = best[:k]
			}
		}
		for _, s := range best {
			out[j] = append(out[j], v.ids[s.i])
		}
	}
	return out
}

// cosineWithNorms is realm.Cosine(a, b) given the squared norms of a and b, to the bit.
func cosineWithNorms(a, b []float32, na, nb float64) float64 {
	if na == 0 || nb == 0 {
		return 0
	}
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

// cosines sets out[i] to cosineWithNorms(q, v.vecs[i], …), to the bit, for the vectors of
// q's length (the others' are left as they were). Four vectors at a time: each sum is
// added up in the same order as alone, but four independent sums keep the CPU busy where
// one waits on each addition (the exact scan was most of the neighbourhood read's CPU).
func (v *spaceVectors) cosines(q []float32, out []float64) {
	nq := squaredNorm(q)
	cosine := func(i int, dot float64) {
		if nq == 0 || v.norms[i] == 0 {
			out[i] = 0
			return
		}
		out[i] = dot / math.Sqrt(nq*v.norms[i])
	}
	n := len(q)
	i := 0
	for ; i+4 <= len(v.vecs); i += 4 {
		a, b, c, d := v.vecs[i], v.vecs[i+1], v.vecs[i+2], v.vecs[i+3]
		if len(a) != n || len(b) != n || len(c) != n || len(d) != n {
			for k := i; k < i+4; k++ {
				if len(v.vecs[k]) == n {
					out[k] = cosineWithNorms(q, v.vecs[k], nq, v.norms[k])
				}
			}
			continue
		}
		a, b, c, d = a[:n], b[:n], c[:n], d[:n] // no bounds checks in the loop
		var da, db, dc, dd float64
		for k, x := range q {
			x := float64(x)
			da += x * float64(a[k])
			db += x * float64(b[k])
			dc += x * float64(c[k])
			dd += x * float64(d[k])
		}
		cosine(i, da)
		cosine(i+1, db)
		cosine(i+2, dc)
		cosine(i+3, dd)
	}
	for ; i < len(v.vecs); i++ {
		if len(v.vecs[i]) == n {
			out[i] = cosineWithNorms(q, v.vecs[i], nq, v.norms[i])
		}
	}
}

// nodesByIDs reads the memories of space with the given ids (each once), by id. With vs
// (the space's embeddings in the state the memories are read in) their embeddings are
// taken from it instead of read (memory_neighbours.cypher).
func nodesByIDs(ctx context.Context, tx neo4j.ManagedTransaction, space string, ids []string, vs *spaceVectors) (map[string]realm.Node, error) {
	nodes := map[string]realm.Node{}
	if len(ids) == 0 {
		return nodes, nil
	}
	ids = slices.Clone(ids)
	slices.SortFunc(ids, strings.Compare)
	q := qMemoriesByIDs
	if vs != nil {
		q = qMemoryNeighbours
	}
	recs, err := collect(ctx, tx, q, map[string]any{"space": space, "ids": slices.Compact(ids)})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		n := nodeOf(propsOf(r, "node"))
		if vs != nil {
			if i, ok := vs.at[n.ID]; ok {
				n.Embedding = vs.vecs[i]
			}
		}
		nodes[n.ID] = n
	}
	return nodes, nil
}
