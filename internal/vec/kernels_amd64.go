package vec

import "golang.org/x/sys/cpu"

// hasKernels: dots4, dots4f and cosine3 need AVX2's 256-bit registers and FMA.
var hasKernels = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dots4 sets lanes[4i+l] to the sum of lane l of the products of qi and v over their
// first n elements (n a multiple of four), as Query.Dot sums them (kernels_amd64.s).
//
//go:noescape
func dots4(q0, q1, q2, q3 *float64, v *float32, n int, lanes *[16]float64)

// cosine3 sets lanes[l], lanes[4+l] and lanes[8+l] to lane l of the sums of a·b, a·a and
// b·b over their first n elements (n a multiple of four), as Cosine sums them.
//
//go:noescape
func cosine3(a, b *float32, n int, lanes *[12]float64)

// dots4f sets sums[i] to the sum, in float32, of the products of qi and v over their
// first n elements (n a multiple of sixteen): Dots4Approx's kernel.
//
//go:noescape
func dots4f(q0, q1, q2, q3 *float32, v *float32, n int, sums *[4]float32)

// dot1f sets sum to the sum, in float32, of the products of q and v over their first n
// elements (n a multiple of sixteen): DotApprox's kernel.
//
//go:noescape
func dot1f(q, v *float32, n int, sum *float32)
