package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randomVec(r *rand.Rand, n int) []float32 {
	e := make([]float32, n)
	for k := range e {
		e[k] = float32(r.NormFloat64() * 0.05)
	}
	return e
}

// TestSameBits: Dots4 (on 256-bit registers where the CPU has them), Query.Dot and Cosine
// give every dot product the same bits, for lengths that are and are not multiples of
// four, and the lanes' order is not the plain loop's (else the test could not see a
// kernel summing in another order).
func TestSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 18))
	for _, n := range []int{384, 101, 3, 0} {
		var qs [4]Query
		var es [4][]float32
		for i := range 4 {
			es[i] = randomVec(r, n)
			qs[i] = NewQuery(es[i])
		}
		for range 20 {
			v := randomVec(r, n)
			var got [4]float64
			Dots4(&qs, v, &got)
			for i := range 4 {
				one := qs[i].Dot(v)
				dot, na, _ := Cosine(es[i], v)
				if got[i] != one || dot != one || na != qs[i].Dot(es[i]) || SquaredNorm(es[i]) != na {
					t.Fatalf("n %d, query %d: Dots4 %v, Dot %v, Cosine %v; norms %v, %v", n, i, got[i], one, dot, na, qs[i].Dot(es[i]))
				}
			}
		}
	}
	differ := 0
	for range 50 {
		a, b := randomVec(r, 384), randomVec(r, 384)
		var plain float64
		for k := range a {
			plain += float64(a[k]) * float64(b[k])
		}
		if plain != NewQuery(a).Dot(b) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the lanes' sums equal the plain loop's for 50 random pairs")
	}
}

// TestWithoutKernels: without the assembly kernels, Dots4 and Cosine give the same bits.
func TestWithoutKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 20))
	var qs [4]Query
	for i := range qs {
		qs[i] = NewQuery(randomVec(r, 384))
	}
	a, v := randomVec(r, 387), randomVec(r, 387)
	var with, without [4]float64
	Dots4(&qs, v[:384], &with)
	d, x, y := Cosine(a, v)
	saved := hasKernels
	hasKernels = false
	defer func() { hasKernels = saved }()
	Dots4(&qs, v[:384], &without)
	if with != without {
		t.Errorf("Dots4: kernel %v, without %v", with, without)
	}
	if d2, x2, y2 := Cosine(a, v); d2 != d || x2 != x || y2 != y {
		t.Errorf("Cosine: kernel %v %v %v, without %v %v %v", d, x, y, d2, x2, y2)
	}
}

// BenchmarkDots4: four queries against 5,000 memories of 384 dimensions, with the kernel
// and with Query.Dot alone, and Dots4Approx; DotApprox for one of them.
func BenchmarkDots4(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 19))
	var qs [4]Query
	var raw [4][]float32
	for i := range qs {
		raw[i] = randomVec(r, 384)
		qs[i] = NewQuery(raw[i])
	}
	vs := make([][]float32, 5000)
	for i := range vs {
		vs[i] = randomVec(r, 384)
	}
	var out [4]float64
	for _, kernel := range []bool{true, false} {
		name := map[bool]string{true: "kernel", false: "dot"}[kernel]
		b.Run(name, func(b *testing.B) {
			saved := hasKernels
			hasKernels = hasKernels && kernel
			defer func() { hasKernels = saved }()
			for b.Loop() {
				for _, v := range vs {
					Dots4(&qs, v, &out)
				}
			}
		})
	}
	b.Run("approx", func(b *testing.B) {
		for b.Loop() {
			for _, v := range vs {
				Dots4Approx(&raw, v, &out)
			}
		}
	})
	b.Run("approx-one", func(b *testing.B) { // a quarter of the others' products
		for b.Loop() {
			for _, v := range vs {
				out[0] = DotApprox(raw[0], v)
			}
		}
	})
}

// TestDots4Approx: the approximate dot products (Dots4Approx, DotApprox) lie within
// ApproxError of the exact ones, with and without the kernels, for lengths that are and
// are not multiples of sixteen, and the kernels' are not the exact ones (else the test
// could not see a bound too low).
func TestDots4Approx(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 21))
	off, offOne := 0, 0
	for _, kernel := range []bool{true, false} {
		saved := hasKernels
		hasKernels = hasKernels && kernel
		for _, n := range []int{384, 1536, 101, 15, 0} {
			var qs [4][]float32
			for i := range qs {
				qs[i] = randomVec(r, n)
			}
			for range 50 {
				v := randomVec(r, n)
				var got [4]float64
				Dots4Approx(&qs, v, &got)
				for i, q := range qs {
					dot, nq, nv := Cosine(q, v)
					if d := math.Abs(got[i] - dot); d > ApproxError(n)*math.Sqrt(nq*nv) {
						t.Fatalf("kernel %v, n %d: approximate %v, exact %v, off by %.3g of the norms' product (bound %.3g)", kernel, n, got[i], dot, d/math.Sqrt(nq*nv), ApproxError(n))
					}
					if got[i] != dot {
						off++
					}
					if one := DotApprox(q, v); math.Abs(one-dot) > ApproxError(n)*math.Sqrt(nq*nv) {
						t.Fatalf("kernel %v, n %d: DotApprox %v, exact %v, off by %.3g of the norms' product (bound %.3g)", kernel, n, one, dot, math.Abs(one-dot)/math.Sqrt(nq*nv), ApproxError(n))
					} else if one != dot {
						offOne++
					}
				}
			}
		}
		hasKernels = saved
	}
	if hasKernels && (off == 0 || offOne == 0) {
		t.Errorf("approximate dot products equal to the exact ones: every one of Dots4Approx (%v), of DotApprox (%v)", off == 0, offOne == 0)
	}
}
