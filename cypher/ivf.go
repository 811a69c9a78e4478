package cypher

import (
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/realm-memory/realm/internal/vec"
)

// Above heldScanMax memories the write path's similarity search over the embeddings it
// holds is approximate, as the vector index's is, but in Go and without a statement: an
// inverted file. The embeddings are grouped in lists around centroids (spherical k-means
// on a sample of the space, ivfRounds rounds), and a search computes the cosines, to the
// bit, of the memories of the ivfProbe lists whose centroids are closest to the
// embedding only: about ivfProbe × ivfListSize memories instead of the whole space. It
// misses a neighbour that lies in a list it does not scan (measured against the exact
// scan and the vector index: docs/benchmarks/scale.md). A memory added or given a new
// embedding by this process's writes joins the list of its closest centroid at its new
// position (its old one, dead, is passed over); the centroids are trained again when the
// space has doubled since they were.

var (
	ivfListSize = 256 // memories a list holds on average when the centroids are trained
	ivfProbe    = 16  // lists a search scans
)

const (
	ivfRounds = 6  // of k-means
	ivfSample = 32 // memories a centroid trained on, at most
)

// ivfIndex is the lists of a spaceVectors. Like it, it is never changed once made: a
// successor (with) shares its lists and appends past their lengths.
type ivfIndex struct {
	dim       int         // the embeddings' length; memories of another are in no list
	centroids [][]float32 // unit length
	lists     [][]int32   // per centroid, positions in spaceVectors.vecs
	trained   int         // memories when the centroids were trained
}

// trainIVF groups the embeddings of vecs at the live positions (live nil: all) in lists
// around about one centroid an ivfListSize of them, of their most common length.
func trainIVF(vecs [][]float32, live []bool) *ivfIndex {
	lengths := map[int]int{}
	for i, e := range vecs {
		if live == nil || live[i] {
			lengths[len(e)]++
		}
	}
	x := &ivfIndex{}
	for n, c := range lengths {
		if n > 0 && (c > lengths[x.dim] || c == lengths[x.dim] && n < x.dim) {
			x.dim = n
		}
	}
	var members []int
	for i, e := range vecs {
		if len(e) == x.dim && (live == nil || live[i]) {
			members = append(members, i)
		}
	}
	x.trained = len(members)
	if len(members) == 0 {
		return x
	}
	lists := max(1, len(members)/ivfListSize)
	step := max(1, len(members)/(ivfSample*lists))
	var sample []int
	for j := 0; j < len(members); j += step {
		sample = append(sample, members[j])
	}
	for c := range lists {
		x.centroids = append(x.centroids, unit(vecs[sample[c*len(sample)/lists]]))
	}
	for range ivfRounds {
		closest := x.closest(vecs, sample)
		sums := make([][]float64, lists)
		for j, i := range sample {
			c := closest[j]
			if sums[c] == nil {
				sums[c] = make([]float64, x.dim)
			}
			for d, v := range vecs[i] {
				sums[c][d] += float64(v)
			}
		}
		for c, sum := range sums {
			if sum != nil {
				x.centroids[c] = unit64(sum)
			}
		}
	}
	x.lists = make([][]int32, lists)
	for j, c := range x.closest(vecs, members) {
		x.lists[c] = append(x.lists[c], int32(members[j]))
	}
	return x
}

// unit is e scaled to length 1 (as it is when e is zero).
func unit(e []float32) []float32 {
	s := make([]float64, len(e))
	for d, v := range e {
		s[d] = float64(v)
	}
	return unit64(s)
}

// unit64 is s scaled to length 1, as float32.
func unit64(s []float64) []float32 {
	var norm float64
	for _, v := range s {
		norm += v * v
	}
	out := make([]float32, len(s))
	for d, v := range s {
		if norm > 0 {
			out[d] = float32(v / math.Sqrt(norm))
		}
	}
	return out
}

// closest is, for each memory of which (of x.dim), the index of its closest centroid by
// dot product (the first on a tie), computed four memories at a time, shared among the
// cores.
func (x *ivfIndex) closest(vecs [][]float32, which []int) []int {
	out := make([]int, len(which))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			from, to := w*len(which)/workers, (w+1)*len(which)/workers
			for g := from; g < to; g += 4 {
				group := fourOf(vecs, which[g:to])
				best := x.nearestCentroids(&group, 1)
				for l := 0; l < 4 && g+l < to; l++ {
					out[g+l] = best[l][0]
				}
			}
		})
	}
	wg.Wait()
	return out
}

// fourOf is the embeddings of es at the first four indexes of idx (at least one), a
// short group repeating its last: the kernels take four at a time.
func fourOf(es [][]float32, idx []int) [4][]float32 {
	var group [4][]float32
	for l := range 4 {
		group[l] = es[idx[min(l, len(idx)-1)]]
	}
	return group
}

// nearestCentroids is, for each of four embeddings of x.dim, the indexes of its n
// closest centroids by dot product, closest first (ties: the first).
func (x *ivfIndex) nearestCentroids(group *[4][]float32, n int) [4][]int {
	type scored struct {
		c   int
		dot float64
	}
	better := func(a, b scored) bool { return a.dot > b.dot || a.dot == b.dot && a.c < b.c }
	var best [4][]scored
	var dots [4]float64
	for c, centroid := range x.centroids {
		vec.Dots4Approx(group, centroid, &dots)
		for l := range 4 {
			best[l] = keepBest(best[l], scored{c, dots[l]}, n, better)
		}
	}
	var out [4][]int
	for l := range 4 {
		for _, s := range best[l] {
			out[l] = append(out[l], s.c)
		}
	}
	return out
}

// with is x for u, the embeddings after a write that wrote those at the positions
// changed (new ones, after x's): each joins the list of its closest centroid. It shares
// x's lists, appending past their lengths (u's, as u's slices: no other successor is
// made). Trained again once u holds twice the memories the centroids were trained on.
func (x *ivfIndex) with(u *spaceVectors, changed []int) *ivfIndex {
	if len(u.ids)-len(u.dead) >= 2*max(x.trained, 1) {
		return trainIVF(u.vecs, u.live())
	}
	y := &ivfIndex{dim: x.dim, centroids: x.centroids, lists: slices.Clone(x.lists), trained: x.trained}
	for _, i := range changed {
		if e := u.vecs[i]; len(e) == y.dim && len(y.centroids) > 0 {
			c := y.nearestCentroids(&[4][]float32{e, e, e, e}, 1)[0][0]
			y.lists[c] = append(y.lists[c], int32(i))
		}
	}
	return y
}

// search is, per embedding of qs (all of x.dim), the positions of the k memories of v
// with the highest cosines among the live ones (live nil: all) of its ivfProbe closest
// lists, best first, ties by id, to the bit. The embeddings are shared among the cores;
// each core scans a list once for all of its embeddings that probe it, four at a time
// (vec.Dots4Approx; one left alone, vec.DotApprox), in float32 within vec.ApproxError,
// keeping for each embedding the memories that could be among its k best (keepNear);
// then, as spaceVectors.best does, computes their cosines again to the bit.
func (x *ivfIndex) search(v *spaceVectors, live []bool, qs [][]float32, k int) [][]int {
	better := func(a, b scoredPosition) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return v.ids[a.i] < v.ids[b.i]
	}
	out := make([][]int, len(qs))
	workers := min(runtime.GOMAXPROCS(0), len(qs))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var mine []int
			for j := w; j < len(qs); j += workers {
				mine = append(mine, j)
			}
			probing := map[int][]int{} // list → the embeddings of mine that scan it
			for g := 0; g < len(mine); g += 4 {
				group := fourOf(qs, mine[g:])
				lists := x.nearestCentroids(&group, ivfProbe)
				for l := 0; l < 4 && g+l < len(mine); l++ {
					for _, c := range lists[l] {
						probing[c] = append(probing[c], mine[g+l])
					}
				}
			}
			norms := make([]float64, len(qs)) // of mine only, as kept
			for _, j := range mine {
				norms[j] = vec.SquaredNorm(qs[j])
			}
			kept := make([][]scoredPosition, len(qs))
			margin := 2 * vec.ApproxError(x.dim)
			for _, c := range slices.Sorted(maps.Keys(probing)) {
				js := probing[c]
				for g := 0; g < len(js); g += 4 {
					group := fourOf(qs, js[g:])
					var dots [4]float64
					n := min(4, len(js)-g)
					for _, i := range x.lists[c] {
						if live != nil && !live[i] {
							continue
						}
						if n == 1 { // a lone embedding: a quarter of the products
							dots[0] = vec.DotApprox(group[0], v.vecs[i])
						} else {
							vec.Dots4Approx(&group, v.vecs[i], &dots)
						}
						for l := range n {
							j := js[g+l]
							s := scoredPosition{int(i), cosine(dots[l], norms[j], v.norms[i])}
							if len(kept[j]) < k || s.score >= kept[j][k-1].score-margin {
								kept[j] = keepNear(kept[j], s, k, margin, better)
							}
						}
					}
				}
			}
			for _, j := range mine {
				out[j] = rescored(v, qs[j], norms[j], kept[j], k, better)
			}
		})
	}
	wg.Wait()
	return out
}

// scoredPosition is a memory's position in a spaceVectors and its cosine with an embedding.
type scoredPosition struct {
	i     int
	score float64
}

// keepNear is kept, best first, with s in its place, less the memories more than margin
// below the k-th best: those that could be among the k best once their cosines are
// computed again (twice vec.ApproxError: an equal embedding's, and a tie's, are kept).
func keepNear(kept []scoredPosition, s scoredPosition, k int, margin float64, better func(a, b scoredPosition) bool) []scoredPosition {
	kept = keepBest(kept, s, len(kept)+1, better)
	if len(kept) > k {
		bar := kept[k-1].score - margin
		for len(kept) > k && kept[len(kept)-1].score < bar {
			kept = kept[:len(kept)-1]
		}
	}
	return kept
}

// rescored is the positions of the k memories of kept with the highest cosines of q
// (squared norm norm) computed to the bit, best first.
func rescored(v *spaceVectors, q []float32, norm float64, kept []scoredPosition, k int, better func(a, b scoredPosition) bool) []int {
	query := vec.NewQuery(q)
	var best []scoredPosition
	for _, s := range kept {
		best = keepBest(best, scoredPosition{s.i, cosine(query.Dot(v.vecs[s.i]), norm, v.norms[s.i])}, k, better)
	}
	out := make([]int, len(best))
	for n, s := range best {
		out[n] = s.i
	}
	return out
}
