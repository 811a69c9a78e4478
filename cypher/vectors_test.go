package cypher

// Internal tests of the write path's exact similarity search in Go (vectors.go): the
// same neighbours as the scan in Cypher, and never a stale vector.

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// randomVec is a random unit-free vector of 384 dimensions.
func randomVec(r *rand.Rand) []float32 {
	v := make([]float32, 384)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// cypherNearest is memory_similar_exact.cypher's answer: per embedding, the ids of the k
// most similar memories of space, best first.
func cypherNearest(t *testing.T, s *Store, space string, embs [][]float32, k int) [][]string {
	t.Helper()
	vecs := make([][]float64, len(embs))
	for i, e := range embs {
		vecs[i] = vector64(e)
	}
	recs, err := s.readTx(context.Background(), func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return collect(context.Background(), tx, qMemorySimilarExact, map[string]any{"space": space, "embeddings": vecs, "k": k})
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]string, len(embs))
	v, _ := recs[0].Get("lists")
	for _, item := range asList(v) {
		list, _ := item.(map[string]any)
		i, _ := list["i"].(int64)
		for _, b := range asList(list["best"]) {
			best, _ := b.(map[string]any)
			out[i] = append(out[i], propString(best, "id"))
		}
	}
	return out
}

// goNearest is RunNeighbourhoods' similar memories by vector, as ids.
func goNearest(t *testing.T, ctx context.Context, s *Store, space string, embs [][]float32, k int) [][]string {
	t.Helper()
	read, err := s.RunNeighbourhoods(ctx, RunQuery{Space: space, Embeddings: embs, Texts: make([]string, len(embs)), K: k})
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]string, len(embs))
	for i, list := range read.Vector {
		for _, n := range list {
			out[i] = append(out[i], n.ID)
		}
	}
	return out
}

// loads counts the statements of log that loaded a space's embeddings.
func loads(log *StatementLog) int {
	n := 0
	for _, st := range log.Statements {
		if st.Name == qMemoryEmbeddings.name {
			n++
		}
	}
	return n
}

// TestNearestAsCypher: the search in Go returns the memories the scan in Cypher returns,
// in the same order, ties (equal vectors) by id.
func TestNearestAsCypher(t *testing.T) {
	s := testStore(t, Config{})
	space := fullTextSpace(t, s)
	r := rand.New(rand.NewPCG(18, 2))
	var nodes []realm.Node
	for i := range 300 {
		nodes = append(nodes, realm.Node{ID: fmt.Sprintf("%s-m%03d", space, i), Type: realm.Fact, Name: fmt.Sprint("m", i), Content: "memory", Embedding: randomVec(r)})
	}
	for i := range 4 { // equal vectors: a tie broken by id
		nodes = append(nodes, realm.Node{ID: fmt.Sprintf("%s-d%d", space, i), Type: realm.Fact, Name: "dup", Content: "memory", Embedding: nodes[7].Embedding})
	}
	if err := s.PutMemories(context.Background(), space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	embs := [][]float32{nodes[7].Embedding, nodes[100].Embedding}
	for range 30 {
		embs = append(embs, randomVec(r))
	}
	want := cypherNearest(t, s, space, embs, 8)
	got := goNearest(t, context.Background(), s, space, embs, 8)
	for i := range embs {
		if len(want[i]) != 8 || !slices.Equal(got[i], want[i]) {
			t.Errorf("embedding %d: Go %v, Cypher %v", i, got[i], want[i])
		}
	}
	if !slices.Contains(got[0], space+"-d3") || got[1][0] != nodes[100].ID {
		t.Errorf("nearest of stored vectors: %v, %v", got[0], got[1])
	}
}

// TestNearestFollowsWrites: the embeddings in memory follow this store's own writes
// without reading the space's again, and another store's writes (another process) are
// seen at once.
func TestNearestFollowsWrites(t *testing.T) {
	s, other := testStore(t, Config{}), testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	r := rand.New(rand.NewPCG(18, 3))
	var obs []realm.Observation
	for i := range 3 {
		obs = append(obs, realm.Observation{ID: fmt.Sprint("o", i), Speaker: "Ann", Content: "said", ObservedAt: time.Date(2023, 5, 8, 13, i, 0, 0, time.UTC)})
	}
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := s.SaveObservations(ctx, space, "test:bow", 384, obs, lease); err != nil {
		t.Fatal(err)
	}
	var first []realm.Node
	for i := range 20 {
		first = append(first, realm.Node{ID: fmt.Sprintf("%s-m%02d", space, i), Type: realm.Fact, Name: fmt.Sprint("m", i), Content: "memory", Embedding: randomVec(r)})
	}
	if err := s.PutMemories(ctx, space, first, nil); err != nil {
		t.Fatal(err)
	}
	q := randomVec(r)
	nearest := func(s *Store) ([]string, int) {
		logCtx, log := WithStatementLog(ctx)
		return goNearest(t, logCtx, s, space, [][]float32{q}, 3)[0], loads(log)
	}
	if _, n := nearest(s); n != 1 {
		t.Fatalf("first search loaded the space %d times, want 1", n)
	}

	// This store's run adds q itself and merges a new vector into m00.
	moved := randomVec(r)
	in := ObservationIntegration{ObservationID: "o0", Integration: Integration{
		Adds:   []realm.Node{{ID: space + "-q", Type: realm.Fact, Name: "q", Content: "the query", Embedding: q, CreatedAt: time.Now(), UpdatedAt: time.Now()}},
		Merges: []Merge{{ID: first[0].ID, Content: "moved", Embedding: moved, Keywords: []string{}}},
	}}
	rq := RunQuery{Space: space, Embeddings: [][]float32{q}, Texts: []string{""}, K: 3}
	read, err := s.RunNeighbourhoods(ctx, rq)
	if err != nil {
		t.Fatal(err)
	}
	if applied, err := s.ApplyRun(ctx, rq, read, []ObservationIntegration{in}); err != nil || !applied.Applied {
		t.Fatalf("apply: %+v %v", applied, err)
	}
	got, n := nearest(s)
	if n != 0 || got[0] != space+"-q" {
		t.Errorf("after its own write: nearest %v, %d loads; want %s first, no load", got, n, space+"-q")
	}
	q = moved // m00's new vector is found where it moved to
	if got, _ := nearest(s); got[0] != first[0].ID {
		t.Errorf("merged vector: nearest %v, want %s first", got, first[0].ID)
	}

	// Another store writes: this one sees it.
	q = randomVec(r)
	nearest(other)
	if err := other.PutMemories(ctx, space, []realm.Node{{ID: space + "-new", Type: realm.Fact, Name: "new", Content: "memory", Embedding: q}}, nil); err != nil {
		t.Fatal(err)
	}
	if got, n := nearest(s); n != 1 || got[0] != space+"-new" {
		t.Errorf("after another store's write: nearest %v, %d loads; want %s first, one load", got, n, space+"-new")
	}
	other2 := randomVec(r)
	read, err = other.RunNeighbourhoods(ctx, RunQuery{Space: space, Embeddings: [][]float32{other2}, Texts: []string{""}, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	in = ObservationIntegration{ObservationID: "o1", Integration: Integration{
		Merges: []Merge{{ID: first[5].ID, Content: "moved too", Embedding: q, Keywords: []string{}}},
	}}
	if applied, err := other.ApplyRun(ctx, RunQuery{Space: space, Embeddings: [][]float32{other2}, Texts: []string{""}, K: 3}, read, []ObservationIntegration{in}); err != nil || !applied.Applied {
		t.Fatalf("apply by the other store: %+v %v", applied, err)
	}
	if got, _ := nearest(s); !slices.Contains(got[:2], first[5].ID) {
		t.Errorf("after another store's merge: nearest %v, want %s among the first two", got, first[5].ID)
	}
}

// TestCosinesToTheBit: the exact scan's cosines, four embeddings at a time against each
// memory, are realm.Cosine's to the bit, with memories of other dimensions and zero
// vectors among them, a last group of fewer than four, embeddings of two lengths and a
// range of the memories.
func TestCosinesToTheBit(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 3))
	v := &spaceVectors{}
	for i := range 103 {
		e := randomVec(r)
		switch i % 17 {
		case 5:
			e = e[:100] // another dimension
		case 9:
			e = make([]float32, 384) // zero
		}
		v.ids = append(v.ids, fmt.Sprint("m", i))
		v.vecs = append(v.vecs, e)
	}
	v.index()
	qs := [][]float32{randomVec(r), v.vecs[3], make([]float32, 384), randomVec(r)[:100], randomVec(r), nil, randomVec(r)}
	out := make([][]float64, len(qs))
	for j := range out {
		out[j] = make([]float64, len(v.vecs))
	}
	from, to := 2, 101
	v.cosines(qs, out, from, to, false)
	for j, q := range qs {
		for i, e := range v.vecs {
			want := 0.0
			if i >= from && i < to && len(e) == len(q) {
				want = realm.Cosine(q, e)
			}
			if out[j][i] != want {
				t.Errorf("embedding %d, memory %d: %v, want %v", j, i, out[j][i], want)
			}
		}
	}
	if out[0][50] == 0 || out[3][5] == 0 {
		t.Errorf("cosines left at zero: %v, %v", out[0][50], out[3][5])
	}
}

// TestNearestLikeExact: nearest, its cosines approximate and the few that could be among
// the k best computed again, ranks as realm.Cosine with ties by id does, among memories
// of other dimensions, equal embeddings (ties) and embeddings one float32 step apart,
// closer than the approximate cosines can tell (which misorder some of them here), k
// below and above their number.
func TestNearestLikeExact(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 5))
	v := &spaceVectors{}
	add := func(e []float32) int {
		v.ids = append(v.ids, fmt.Sprintf("m%03d", len(v.ids)))
		v.vecs = append(v.vecs, e)
		return len(v.vecs) - 1
	}
	var near []int
	for i := range 300 {
		e := randomVec(r)
		switch i % 6 {
		case 1:
			add(e)
			add(slices.Clone(e)) // a tie
		case 2, 3:
			step := slices.Clone(e)
			for k := i % 7; k < len(step); k += 7 {
				step[k] = math.Nextafter32(step[k], float32(2*(i%2)-1))
			}
			if i%6 == 2 { // the one a step away first by id, or second
				add(step)
				near = append(near, add(e))
			} else {
				near = append(near, add(e))
				add(step)
			}
		case 4:
			add(e)
			add(e[:100]) // another dimension
		default:
			add(e)
		}
	}
	v.index()
	embs := [][]float32{randomVec(r), randomVec(r)[:100], v.vecs[3]}
	for _, i := range near[:12] {
		embs = append(embs, v.vecs[i])
	}
	misordered := 0
	defer func(size, probe int) { ivfListSize, ivfProbe = size, probe }(ivfListSize, ivfProbe)
	ivfListSize, ivfProbe = 20, 1_000
	for _, search := range []string{"the scan", "lists"} {
		if search == "lists" {
			v.ivf = trainIVF(v.vecs, nil)
		}
		for _, k := range []int{1, 2, 10, 600} {
			got := v.nearest(embs, k)
			approx := make([][]float64, len(embs))
			for j := range approx {
				approx[j] = make([]float64, len(v.vecs))
			}
			v.cosines(embs, approx, 0, len(v.vecs), true)
			for j, q := range embs {
				var want []string
				for i, e := range v.vecs {
					if len(e) == len(q) {
						want = append(want, v.ids[i])
					}
				}
				byCosine := func(cos func(id string) float64) []string {
					ids := slices.Clone(want)
					slices.SortFunc(ids, func(a, b string) int {
						if c := cmp.Compare(cos(b), cos(a)); c != 0 {
							return c
						}
						return strings.Compare(a, b)
					})
					return ids[:min(k, len(ids))]
				}
				exact := byCosine(func(id string) float64 { return realm.Cosine(q, v.vecs[v.at[id]]) })
				if !slices.Equal(got[j], exact) {
					t.Errorf("%s, k %d, embedding %d: nearest %v, want %v", search, k, j, got[j], exact)
				}
				if !slices.Equal(byCosine(func(id string) float64 { return approx[j][v.at[id]] }), exact) {
					misordered++
				}
			}
		}
	}
	if misordered == 0 {
		t.Error("the approximate cosines rank every embedding's nearest as the exact ones: the test cannot tell")
	}
}

// BenchmarkNearest: the write path's exact scan of 1,000 memories for three candidates,
// and of 10,000 for eight (an observation's candidates one a call; shared among the cores),
// and its search in lists of 100,000 for eight (each candidate mostly alone in a list).
func BenchmarkNearest(b *testing.B) {
	for _, size := range []struct{ memories, candidates int }{{1000, 3}, {10_000, 8}, {100_000, 8}} {
		b.Run(fmt.Sprintf("%dx%d", size.memories, size.candidates), func(b *testing.B) {
			r := rand.New(rand.NewPCG(18, 4))
			v := &spaceVectors{}
			for i := range size.memories {
				v.ids = append(v.ids, fmt.Sprint("m", i))
				v.vecs = append(v.vecs, randomVec(r))
			}
			v.index()
			if int64(size.memories) > heldScanMax {
				v.ivf = trainIVF(v.vecs, nil)
			}
			var embs [][]float32
			for range size.candidates {
				embs = append(embs, randomVec(r))
			}
			for b.Loop() {
				v.nearest(embs, 10)
			}
		})
	}
}

// TestHeldVectorSeedsLikeExactScan: the read path's vector seeds from the embeddings held
// in memory are the exact scan's in Cypher, filters included; they are used only once
// read (in the background) and only while the space is in the state they were read in.
func TestHeldVectorSeedsLikeExactScan(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	r := rand.New(rand.NewPCG(18, 4))
	day := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	types := []realm.NodeType{realm.Event, realm.Fact, realm.Entity}
	var nodes []realm.Node
	for i := range 300 {
		n := realm.Node{ID: fmt.Sprintf("%s-m%03d", space, i), Type: types[i%3], Name: fmt.Sprint("m", i), Content: "memory", Embedding: randomVec(r)}
		if i%4 == 0 {
			start := day.AddDate(0, 0, i%30)
			n.TStart = &start
			if i%8 == 0 {
				end := start.AddDate(0, 0, 3)
				n.TEnd = &end
			}
		}
		nodes = append(nodes, n)
	}
	nodes = append(nodes, realm.Node{ID: space + "-plain", Type: realm.Fact, Name: "plain", Content: "no embedding"})
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	setSpaceVersion(t, s, space)
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	week := &realm.TimeRange{From: day.AddDate(0, 0, 10), To: day.AddDate(0, 0, 17)}
	queries := []SeedQuery{
		{Embedding: randomVec(r)},
		{Embedding: randomVec(r), Limit: 40},
		{Embedding: nodes[7].Embedding, Limit: 5},
		{Embedding: randomVec(r), Types: []realm.NodeType{realm.Event, realm.Entity}},
		{Embedding: randomVec(r), TimeRange: week, Limit: 30},
		{Embedding: randomVec(r), Types: []realm.NodeType{realm.Event}, TimeRange: &realm.TimeRange{From: day.AddDate(0, 0, 20)}},
	}
	for i := range queries {
		queries[i].SpaceSize, queries[i].SpaceVersion = counts.InSpace, counts.Version
	}
	// Not held at first: a read starts in the background; the filtered ones also need
	// the keyword index.
	deadline := time.Now().Add(30 * time.Second)
	for _, q := range queries {
		for {
			_, held, err := s.SeedByHeldVectors(ctx, space, q)
			if err != nil {
				t.Fatal(err)
			}
			if held {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("embeddings never held for %+v", q.Types)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for i, q := range queries {
		got, held, err := s.SeedByHeldVectors(ctx, space, q)
		if err != nil || !held {
			t.Fatalf("query %d: held %t, %v", i, held, err)
		}
		want, err := s.SeedByExactScan(ctx, space, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || !slices.Equal(scoredIDs(got), scoredIDs(want)) {
			t.Errorf("query %d: held %v, Cypher %v", i, scoredIDs(got), scoredIDs(want))
			continue
		}
		for j := range got {
			if math.Abs(got[j].Score-want[j].Score) > 1e-6 || got[j].Node.Content == "" || len(got[j].Node.Embedding) != 384 {
				t.Errorf("query %d: %s scores %v (Cypher %v), content %q, %d dimensions", i, got[j].Node.ID, got[j].Score, want[j].Score, got[j].Node.Content, len(got[j].Node.Embedding))
			}
		}
	}
	if got, _, _ := s.SeedByHeldVectors(ctx, space, queries[2]); len(got) == 0 || got[0].Node.ID != nodes[7].ID {
		t.Errorf("a stored vector's nearest: %v", scoredIDs(got))
	}
	// Another state (a write of another process): not used.
	setSpaceVersion(t, s, space)
	moved, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	q := queries[0]
	q.SpaceVersion = moved.Version
	if _, held, err := s.SeedByHeldVectors(ctx, space, q); err != nil || held {
		t.Errorf("held %t (%v) after the space's version moved", held, err)
	}
}

// TestIndexNearestLikeExact: above the size the write path scans, its similar memories
// come from the vector index, the same as the exact scan (the k nearest clearly apart:
// the index is approximate) though another space holds many better matches: on 2026.x a
// run's second read (RunSimilar) and a single observation's read take the filtered
// search, run before their transaction; a read in one transaction (as under the space's
// lock), and every read after a failed filtered search, over-fetch, find only the other
// space's, and the exact scan answers.
func TestIndexNearestLikeExact(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	defer func(m, h, a int64) { writeScanMax, heldScanMax, heldSearchMax = m, h, a }(writeScanMax, heldScanMax, heldSearchMax)
	writeScanMax, heldScanMax, heldSearchMax = 0, 0, 0
	mine, other := fullTextSpace(t, s), fullTextSpace(t, s)
	r := rand.New(rand.NewPCG(7, 11))
	const k = 4
	near := func(v []float32, noise float64) []float32 {
		out := slices.Clone(v)
		for i := range out {
			out[i] += float32(noise * r.NormFloat64())
		}
		return out
	}
	var embs [][]float32
	for range 5 {
		embs = append(embs, randomVec(r))
	}
	var mineNodes, otherNodes []realm.Node
	for i := range 100 {
		v := randomVec(r)
		if i < k*len(embs) { // each embedding's k nearest, clearly apart
			v = near(embs[i%len(embs)], 0.2*float64(1+i/len(embs)))
		}
		mineNodes = append(mineNodes, realm.Node{ID: fmt.Sprintf("%s-m%03d", mine, i), Type: realm.Fact, Name: fmt.Sprint("m", i), Content: "memory", Embedding: v})
	}
	for i := range 150 * len(embs) { // better matches than mine for every embedding, more than the over-fetch
		otherNodes = append(otherNodes, realm.Node{ID: fmt.Sprintf("%s-o%04d", other, i), Type: realm.Fact, Name: fmt.Sprint("o", i), Content: "memory", Embedding: near(embs[i%len(embs)], 0.1)})
	}
	if err := s.PutMemories(ctx, mine, mineNodes, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMemories(ctx, other, otherNodes, nil); err != nil {
		t.Fatal(err)
	}
	setSpaceVersion(t, s, mine)
	want := cypherNearest(t, s, mine, embs, k)
	q := RunQuery{Space: mine, Embeddings: embs, Texts: make([]string, len(embs)), K: k}
	reads := map[string]func(ctx context.Context) [][]realm.Node{
		"run": func(ctx context.Context) [][]realm.Node {
			read, err := s.RunContext(ctx, q)
			if err == nil {
				read, err = s.RunSimilar(ctx, q, read)
			}
			if err != nil {
				t.Fatal(err)
			}
			return read.Vector
		},
		"one transaction": func(ctx context.Context) [][]realm.Node {
			read, err := s.RunNeighbourhoods(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			return read.Vector
		},
		"one observation": func(ctx context.Context) [][]realm.Node {
			hoods, err := s.Neighbourhoods(ctx, NeighbourQuery{Space: mine, Embeddings: embs, Texts: q.Texts, K: k})
			if err != nil {
				t.Fatal(err)
			}
			out := make([][]realm.Node, len(hoods))
			for i, hood := range hoods {
				for _, n := range hood {
					if n.Similar {
						out[i] = append(out[i], n.Node)
					}
				}
			}
			return out
		},
	}
	check := func(how string, statements ...string) {
		t.Helper()
		logCtx, log := WithStatementLog(ctx)
		for i, got := range reads[how](logCtx) {
			if ids := ids(got); !slices.Equal(ids, want[i]) {
				t.Errorf("%s, embedding %d: %v, exact scan %v", how, i, ids, want[i])
			}
		}
		var ran []string
		for _, st := range log.Statements {
			if strings.HasPrefix(st.Name, "memory_similar") {
				ran = append(ran, st.Name)
			}
		}
		if !slices.Equal(ran, statements) {
			t.Errorf("%s: statements %v, want %v", how, ran, statements)
		}
	}
	s.LoadKeywordIndex(ctx, mine) // a state known before the single observation's read
	if s.FiltersVectors() {
		check("run", "memory_similar_filtered")
		check("one observation", "memory_similar_filtered")
	}
	check("one transaction", "memory_similar_index", "memory_similar_exact")
	s.unfiltered.Store(mine, time.Now().Add(time.Hour))
	check("run", "memory_similar_index", "memory_similar_exact")
}

// TestHeldVectorsAboveScanSize: above the size the write path reads to scan, it scans in
// Go the embeddings read in the background once they are held, with the exact scan's
// answer and no vector statement; a read during which this process wrote is kept, caught
// up with those writes (an added memory, a merged one's new embedding), as a read after
// them gives it; a write that takes the space past heldSearchMax forgets them.
func TestHeldVectorsAboveScanSize(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	defer func(m, h, a int64) { writeScanMax, heldScanMax, heldSearchMax = m, h, a }(writeScanMax, heldScanMax, heldSearchMax)
	writeScanMax, heldScanMax, heldSearchMax = 0, 1_000, 1_000
	space := fullTextSpace(t, s)
	r := rand.New(rand.NewPCG(5, 8))
	var nodes []realm.Node
	for i := range 100 {
		nodes = append(nodes, realm.Node{ID: fmt.Sprintf("%s-m%03d", space, i), Type: realm.Fact, Name: fmt.Sprint("m", i), Content: "memory", Embedding: randomVec(r)})
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := s.SaveObservations(ctx, space, "test:bow", 384, []realm.Observation{
		{ID: "o0", Speaker: "Ann", Content: "said", ObservedAt: day}, {ID: "o1", Speaker: "Ann", Content: "said", ObservedAt: day.Add(time.Hour)},
		{ID: "o2", Speaker: "Ann", Content: "said", ObservedAt: day.Add(2 * time.Hour)},
	}, lease); err != nil {
		t.Fatal(err)
	}
	setSpaceVersion(t, s, space)
	embs := [][]float32{randomVec(r), randomVec(r)}
	q := RunQuery{Space: space, Embeddings: embs, Texts: []string{"memory", "memory"}, K: 5}
	read := func() (RunNeighbours, []string) {
		t.Helper()
		logCtx, log := WithStatementLog(ctx)
		got, err := s.RunNeighbourhoods(logCtx, q)
		if err != nil {
			t.Fatal(err)
		}
		var ran []string
		for _, st := range log.Statements {
			if strings.HasPrefix(st.Name, "memory_similar") {
				ran = append(ran, st.Name)
			}
		}
		return got, ran
	}
	heldNow := func() *spaceVectors {
		counts, err := s.SpaceCounts(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		return s.vectors.cached(space, SpaceState{N: counts.InSpace, Version: counts.Version})
	}
	if _, ran := read(); len(ran) == 0 {
		t.Error("a vector statement did not run while the embeddings were not held")
	}
	for start := time.Now(); heldNow() == nil; time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 20*time.Second {
			t.Fatal("the embeddings were not read in the background")
		}
	}
	got, ran := read()
	if len(ran) > 0 {
		t.Errorf("statements %v with the embeddings held", ran)
	}
	want := cypherNearest(t, s, space, embs, q.K)
	for i := range embs {
		if !slices.Equal(ids(got.Vector[i]), want[i]) {
			t.Errorf("embedding %d: %v, exact scan %v", i, ids(got.Vector[i]), want[i])
		}
	}

	write := func(obs string, in Integration) {
		t.Helper()
		q := RunQuery{Space: space, Embeddings: [][]float32{randomVec(r)}, Texts: []string{"memory"}, K: 3}
		read, err := s.RunNeighbourhoods(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		applied, err := s.ApplyRun(ctx, q, read, []ObservationIntegration{{ObservationID: obs, Integration: in}})
		if err != nil || !applied.Applied {
			t.Fatalf("apply: %+v %v", applied, err)
		}
	}
	s.vectors.drop(space)
	added, merged := randomVec(r), randomVec(r)
	vectorsRead = func() {
		vectorsRead = nil
		write("o0", Integration{Adds: []realm.Node{{ID: space + "-new", Type: realm.Event, Name: "new", Content: "a new memory", Embedding: added, CreatedAt: day, UpdatedAt: day}}})
		write("o1", Integration{Merges: []Merge{{ID: nodes[7].ID, Content: "memory, merged", Embedding: merged}}})
	}
	defer func() { vectorsRead = nil }()
	if err := s.vectors.load(ctx, s, space); err != nil {
		t.Fatal(err)
	}
	kept := heldNow()
	if kept == nil {
		t.Fatal("the embeddings read before the writes were not kept, caught up")
	}
	fresh := &vectorCache{}
	if err := fresh.load(ctx, s, space); err != nil {
		t.Fatal(err)
	}
	again := fresh.spaces[space]
	if again == nil || again.state != kept.state || len(again.ids) != len(kept.ids)-len(kept.dead) {
		t.Fatalf("caught up: %d embeddings (%d dead) of %+v, read again: %v", len(kept.ids), len(kept.dead), kept.state, again != nil)
	}
	for i, id := range again.ids {
		j, ok := kept.position(id)
		if !ok || !slices.Equal(kept.vecs[j], again.vecs[i]) || kept.norms[j] != again.norms[i] {
			t.Errorf("%s: caught up %v, read again %v", id, ok, again.vecs[i][:3])
		}
	}
	at := func(id string) int { i, _ := kept.position(id); return i }
	if !slices.Equal(kept.vecs[at(space+"-new")], added) || !slices.Equal(kept.vecs[at(nodes[7].ID)], merged) {
		t.Error("the writes during the read are not in the embeddings kept")
	}
	// Above heldScanMax they are searched in lists (ivf.go): with every list probed, the
	// exact scan's answer, still without a vector statement.
	defer func(size, probe int) { ivfListSize, ivfProbe = size, probe }(ivfListSize, ivfProbe)
	// A background read of the space earlier in the test, slow on a loaded machine, holds
	// the next one back (readGap): let it end, and lift the pause.
	for s.vectors.reads.busy(space) {
		time.Sleep(10 * time.Millisecond)
	}
	s.vectors.reads.mu.Lock()
	clear(s.vectors.reads.next)
	s.vectors.reads.mu.Unlock()
	heldScanMax, ivfListSize, ivfProbe = 50, 10, 1_000
	s.vectors.drop(space)
	if _, ran := read(); len(ran) == 0 {
		t.Error("a vector statement did not run while the embeddings were not held")
	}
	for start := time.Now(); heldNow() == nil; time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 20*time.Second {
			t.Fatal("the embeddings were not read in the background")
		}
	}
	if lists := heldNow().ivf; lists == nil || len(lists.lists) != 10 {
		t.Fatalf("lists above heldScanMax: %+v", lists)
	}
	got, ran = read()
	want = cypherNearest(t, s, space, embs, q.K)
	for i := range embs {
		if !slices.Equal(ids(got.Vector[i]), want[i]) || len(ran) > 0 {
			t.Errorf("in lists, embedding %d: %v (statements %v), exact scan %v", i, ids(got.Vector[i]), ran, want[i])
		}
	}
	// A write that takes the space past the searches forgets them.
	heldSearchMax = kept.state.N
	write("o2", Integration{Adds: []realm.Node{{ID: space + "-more", Type: realm.Event, Name: "more", Content: "one more memory", Embedding: randomVec(r), CreatedAt: day, UpdatedAt: day}}})
	if held := s.vectors.held(space); held != (SpaceState{}) {
		t.Errorf("embeddings of %+v still held past %d memories", held, heldSearchMax)
	}
}
