package vec

// Query is an embedding made ready for many dot products: its values as float64.
type Query []float64

// NewQuery is e made ready for many dot products.
func NewQuery(e []float32) Query {
	q := make(Query, len(e))
	for k, x := range e {
		q[k] = float64(x)
	}
	return q
}

// Dot is the dot product of q and v, of the same length, in the package's order.
func (q Query) Dot(v []float32) float64 {
	q = q[:len(v)]
	var s0, s1, s2, s3 float64
	n := len(v) &^ 3
	for k := 0; k < n; k += 4 {
		s0 += q[k] * float64(v[k])
		s1 += q[k+1] * float64(v[k+1])
		s2 += q[k+2] * float64(v[k+2])
		s3 += q[k+3] * float64(v[k+3])
	}
	return finish(&[4]float64{s0, s1, s2, s3}, q, v)
}

// Dots4 sets out[i] to q[i].Dot(v), to the bit, for four queries of v's length: v is
// read from memory once for the four (an exact scan of many memories is bound by
// reading them).
func Dots4(q *[4]Query, v []float32, out *[4]float64) {
	if !hasKernels {
		for i := range 4 {
			out[i] = q[i].Dot(v)
		}
		return
	}
	n := len(v)
	q0, q1, q2, q3 := q[0][:n], q[1][:n], q[2][:n], q[3][:n]
	var lanes [16]float64
	if n >= 4 {
		dots4(&q0[0], &q1[0], &q2[0], &q3[0], &v[0], n&^3, &lanes)
	}
	for i, qi := range [4]Query{q0, q1, q2, q3} {
		out[i] = finish((*[4]float64)(lanes[4*i:]), qi, v)
	}
}

// Dots4Approx sets out[i] to q[i]·v within ApproxError(len(v)) times the product of their
// norms, for four vectors of v's length, at about half Dots4's cost: the sums run in
// float32, eight lanes a register. Without the kernels they run in float64, in order.
func Dots4Approx(q *[4][]float32, v []float32, out *[4]float64) {
	n := len(v)
	m := n &^ 15
	qs := [4][]float32{q[0][:n], q[1][:n], q[2][:n], q[3][:n]}
	var sums [4]float32
	if hasKernels && m > 0 {
		dots4f(&qs[0][0], &qs[1][0], &qs[2][0], &qs[3][0], &v[0], m, &sums)
	} else {
		m = 0
	}
	for i, qi := range qs {
		s := float64(sums[i])
		for k := m; k < n; k++ {
			s += float64(qi[k]) * float64(v[k])
		}
		out[i] = s
	}
}

// DotApprox is q·v within ApproxError(len(v)) times the product of their norms, for q of
// v's length: Dots4Approx for a lone vector, at a quarter of its work.
func DotApprox(q, v []float32) float64 {
	n := len(v)
	m := n &^ 15
	q = q[:n]
	var sum float32
	if hasKernels && m > 0 {
		dot1f(&q[0], &v[0], m, &sum)
	} else {
		m = 0
	}
	s := float64(sum)
	for k := m; k < n; k++ {
		s += float64(q[k]) * float64(v[k])
	}
	return s
}

// ApproxError bounds the error of Dots4Approx and DotApprox on vectors of length n,
// relative to the product of their norms, twice over: each product reaches its sum
// through at most n/16+4 roundings in float32 (its lane's chain, the two chains'
// addition, three to add the lanes), each by at most 2⁻²⁴ of the sum of the products'
// magnitudes, which is at most the product of the norms.
func ApproxError(n int) float64 { return float64(n/16+5) * 0x1p-23 }

// Cosine is the dot product of a and b, of the same length, and their squared norms, each
// in the package's order.
func Cosine(a, b []float32) (dot, na, nb float64) {
	b = b[:len(a)]
	n := len(a) &^ 3
	var l [12]float64
	if hasKernels && n > 0 {
		cosine3(&a[0], &b[0], n, &l)
	} else {
		for k := 0; k < n; k += 4 {
			for i := range 4 {
				p, q := float64(a[k+i]), float64(b[k+i])
				l[i] += p * q
				l[4+i] += p * p
				l[8+i] += q * q
			}
		}
	}
	dot, na, nb = (l[0]+l[1])+(l[2]+l[3]), (l[4]+l[5])+(l[6]+l[7]), (l[8]+l[9])+(l[10]+l[11])
	for k := n; k < len(a); k++ {
		p, q := float64(a[k]), float64(b[k])
		dot += p * q
		na += p * p
		nb += q * q
	}
	return dot, na, nb
}

// SquaredNorm is the dot product of e with itself, in the package's order.
func SquaredNorm(e []float32) float64 {
	_, n, _ := Cosine(e, e)
	return n
}

// finish adds the lanes and then the elements past the last multiple of four.
func finish(l *[4]float64, q Query, v []float32) float64 {
	s := (l[0] + l[1]) + (l[2] + l[3])
	for k := len(v) &^ 3; k < len(v); k++ {
		s += q[k] * float64(v[k])
	}
	return s
}
