package cypher

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/realm-memory/realm"
)

// clustered is n embeddings of 384 around 40 random centres, ids m0000…, twelve of them
// equal (more ties than a search's k) and three of another length.
func clustered(r *rand.Rand, n int) *spaceVectors {
	var centres [][]float32
	for range 40 {
		centres = append(centres, randomVec(r))
	}
	v := &spaceVectors{}
	for i := range n {
		e := slices.Clone(centres[r.IntN(len(centres))])
		for d := range e {
			e[d] += float32(0.8 * r.NormFloat64())
		}
		v.ids, v.vecs = append(v.ids, fmt.Sprintf("m%04d", i)), append(v.vecs, e)
	}
	for i := 7; i < 18; i++ {
		v.vecs[i] = slices.Clone(v.vecs[3])
	}
	for i := range 3 {
		v.ids, v.vecs = append(v.ids, fmt.Sprintf("short%d", i)), append(v.vecs, randomVec(r)[:16])
	}
	v.index()
	return v
}

// near is n embeddings each close to one of v's 384 ones.
func near(r *rand.Rand, v *spaceVectors, n int) [][]float32 {
	var out [][]float32
	for range n {
		e := slices.Clone(v.vecs[r.IntN(len(v.vecs)-3)])
		for d := range e {
			e[d] += float32(0.5 * r.NormFloat64())
		}
		out = append(out, e)
	}
	return out
}

// checkLists fails unless every live embedding of v of the lists' length is in exactly
// one list, the one of its closest centroid, and no other live one is in any.
func checkLists(t *testing.T, v *spaceVectors) {
	t.Helper()
	x, live := v.ivf, v.live()
	in := map[int32][]int{}
	for c, list := range x.lists {
		for _, i := range list {
			in[i] = append(in[i], c)
		}
	}
	for i, e := range v.vecs {
		if live != nil && !live[i] {
			continue
		}
		var want []int
		if len(e) == x.dim {
			want = x.nearestCentroids(&[4][]float32{e, e, e, e}, 1)[0][:1]
		}
		if !slices.Equal(in[int32(i)], want) {
			t.Errorf("memory %d (length %d) in lists %v; closest centroid %v", i, len(e), in[int32(i)], want)
		}
	}
}

// exactly is v's search without lists: the exact scan.
func exactly(v *spaceVectors) *spaceVectors {
	return &spaceVectors{state: v.state, ids: v.ids, vecs: v.vecs, norms: v.norms, at: v.at, recent: v.recent, dead: v.dead}
}

// TestIVFLikeExact: the lists hold every embedding of their length once, at its closest
// centroid; probing every list gives the exact scan's answer, ties by id included, and
// probing a few finds most of it; an embedding of another length is searched exactly.
func TestIVFLikeExact(t *testing.T) {
	defer func(size, probe int) { ivfListSize, ivfProbe = size, probe }(ivfListSize, ivfProbe)
	ivfListSize = 100
	r := rand.New(rand.NewPCG(3, 4))
	v := clustered(r, 3_000)
	v.ivf = trainIVF(v.vecs, nil)
	if len(v.ivf.lists) != 30 || v.ivf.dim != 384 || v.ivf.trained != 3_000 {
		t.Fatalf("%d lists of length %d trained on %d", len(v.ivf.lists), v.ivf.dim, v.ivf.trained)
	}
	checkLists(t, v)
	qs := append(near(r, v, 60), v.vecs[3], randomVec(r)[:16], nil)
	want := exactly(v).nearest(qs, 8)
	if !slices.Equal(want[60][:3], []string{"m0003", "m0007", "m0008"}) || len(want[61]) != 3 || want[62] != nil {
		t.Fatalf("exact: %v, %v, %v", want[60], want[61], want[62])
	}
	ivfProbe = len(v.ivf.lists)
	if got := v.nearest(qs, 8); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("every list probed:\n%v\nexact:\n%v", got, want)
	}
	ivfProbe = 3
	got := v.nearest(qs, 8)
	found := 0
	for i := range 60 {
		for _, id := range got[i] {
			if slices.Contains(want[i], id) {
				found++
			}
		}
	}
	if recall := float64(found) / (60 * 8); recall < 0.9 {
		t.Errorf("3 lists of 30 probed: recall %.3f of the exact scan's", recall)
	}
	if !slices.Equal(got[61], want[61]) {
		t.Errorf("another length: %v, exact %v", got[61], want[61])
	}
}

// TestIVFFollowsWrites: a write's added memories and merged ones' new embeddings join
// the lists of their closest centroids in the new embeddings, and leave the old ones
// as they were (a search may be reading them); the lists are trained again once the
// space has doubled, and made when a write takes it past heldScanMax.
func TestIVFFollowsWrites(t *testing.T) {
	defer func(size, probe int, held int64) { ivfListSize, ivfProbe, heldScanMax = size, probe, held }(ivfListSize, ivfProbe, heldScanMax)
	ivfListSize, heldScanMax = 50, 1_000
	r := rand.New(rand.NewPCG(5, 6))
	v := clustered(r, 1_200)
	v.ivf = trainIVF(v.vecs, nil)
	before := make([][]int32, len(v.ivf.lists))
	for c, list := range v.ivf.lists {
		before[c] = slices.Clone(list)
	}
	old, _ := v.position("m0010")
	moved := near(r, v, 1)[0]
	in := Integration{Merges: []Merge{{ID: "m0010", Embedding: moved}, {ID: "m0011"}}}
	for i, e := range near(r, v, 20) {
		in.Adds = append(in.Adds, realm.Node{ID: fmt.Sprintf("new%02d", i), Embedding: e})
	}
	u := v.with(SpaceState{N: 1_223, Version: "after"}, []ObservationIntegration{{Integration: in}})
	if i, _ := v.position("m0010"); !slices.EqualFunc(v.ivf.lists, before, slices.Equal) || len(v.ids) != 1_203 || i != old || v.live() != nil {
		t.Error("the write changed the embeddings or lists it was made from")
	}
	checkLists(t, u)
	if i, _ := u.position("m0010"); !slices.Equal(u.vecs[i], moved) || !slices.Equal(u.dead, []int{old}) || u.ivf.trained != 1_200 {
		t.Errorf("merged: at %d, dead %v, trained on %d", i, u.dead, u.ivf.trained)
	}
	ivfProbe = len(u.ivf.lists)
	qs := near(r, u, 20)
	if got, want := u.nearest(qs, 5), exactly(u).nearest(qs, 5); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("after the write, every list probed:\n%v\nexact:\n%v", got, want)
	}

	// Many merges: the dead positions left out, the lists made again.
	in = Integration{}
	for i := range 500 {
		in.Merges = append(in.Merges, Merge{ID: fmt.Sprintf("m%04d", i), Embedding: near(r, v, 1)[0]})
	}
	c := u.with(SpaceState{N: 1_223}, []ObservationIntegration{{Integration: in}})
	if len(c.ids) != 1_223 || c.live() != nil || len(c.at) != 1_223 || len(c.recent) != 0 {
		t.Errorf("compacted: %d positions, %d dead, %d + %d ids", len(c.ids), len(c.dead), len(c.at), len(c.recent))
	}
	checkLists(t, c)
	if got, want := c.nearest(qs, 5), exactly(c).nearest(qs, 5); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("compacted, every list probed:\n%v\nexact:\n%v", got, want)
	}

	in = Integration{}
	for i, e := range near(r, v, 1_300) {
		in.Adds = append(in.Adds, realm.Node{ID: fmt.Sprintf("more%04d", i), Embedding: e})
	}
	if w := c.with(SpaceState{N: 2_523}, []ObservationIntegration{{Integration: in}}); w.ivf.trained != 2_520 {
		t.Errorf("the space doubled: lists trained on %d memories", w.ivf.trained)
	}
	small := clustered(r, 990)
	u = small.with(SpaceState{N: 1_013}, []ObservationIntegration{{Integration: Integration{Adds: in.Adds[:20]}}})
	if small.ivf != nil || u.ivf == nil || u.ivf.trained != 1_010 {
		t.Errorf("past heldScanMax: lists %v", u.ivf != nil)
	}
}
