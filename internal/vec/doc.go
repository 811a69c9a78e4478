// Package vec computes the dot products of embeddings, the same to the bit wherever they
// are computed: the exact scans of a space's held embeddings and realm.Cosine of one
// pair must rank and tie memories alike. It imports the standard library and
// golang.org/x/sys/cpu only.
//
// The order of a sum is fixed: each product of two float32 is exact in float64; element
// k is added to lane k mod 4, the lanes are added as (0+1)+(2+3), and the elements past
// the last multiple of four after them, in order. A fused multiply-add therefore rounds
// as a multiply then an add does, and on a CPU with AVX2 and FMA the sums run on 256-bit
// registers, four lanes of float64 (kernels_amd64.s: Dots4's four queries against one
// vector, Cosine's three sums), giving the bits of the same sums in Go.
//
// Dots4Approx alone is not to the bit: its sums run in float32, eight lanes a register,
// within ApproxError of the exact ones, for a scan that computes again, exactly, the few
// cosines that could change its ranking.
package vec
