//go:build !amd64

package vec

// hasKernels is false: dots4, dots4f and cosine3 are written for amd64 only (kernels_amd64.s).
var hasKernels = false

func dots4(q0, q1, q2, q3 *float64, v *float32, n int, lanes *[16]float64) {
	panic("vec: dots4 without hasKernels")
}

func cosine3(a, b *float32, n int, lanes *[12]float64) {
	panic("vec: cosine3 without hasKernels")
}

func dots4f(q0, q1, q2, q3 *float32, v *float32, n int, sums *[4]float32) {
	panic("vec: dots4f without hasKernels")
}

func dot1f(q, v *float32, n int, sum *float32) {
	panic("vec: dot1f without hasKernels")
}
