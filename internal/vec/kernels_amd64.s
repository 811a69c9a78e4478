#include "textflag.h"

// func dots4(q0, q1, q2, q3 *float64, v *float32, n int, lanes *[16]float64)
//
// Four elements a step: v's four converted to float64 once (VCVTPS2PD), then one
// multiply-add per query into its own register, lane l holding the elements k ≡ l mod 4
// (the product of two float32 is exact in float64, so the fused multiply-add rounds as
// Query.Dot's multiply then add).
TEXT ·dots4(SB), NOSPLIT, $0-56
	MOVQ q0+0(FP), AX
	MOVQ q1+8(FP), BX
	MOVQ q2+16(FP), CX
	MOVQ q3+24(FP), DX
	MOVQ v+32(FP), SI
	MOVQ n+40(FP), DI
	MOVQ lanes+48(FP), R8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ R9, R9

loop:
	CMPQ R9, DI
	JGE  done
	VCVTPS2PD   (SI)(R9*4), Y4
	VFMADD231PD (AX)(R9*8), Y4, Y0
	VFMADD231PD (BX)(R9*8), Y4, Y1
	VFMADD231PD (CX)(R9*8), Y4, Y2
	VFMADD231PD (DX)(R9*8), Y4, Y3
	ADDQ $4, R9
	JMP  loop

done:
	VMOVUPD Y0, (R8)
	VMOVUPD Y1, 32(R8)
	VMOVUPD Y2, 64(R8)
	VMOVUPD Y3, 96(R8)
	VZEROUPPER
	RET

// func cosine3(a, b *float32, n int, lanes *[12]float64)
//
// The lanes of a·b, a·a and b·b over the first n elements (n a multiple of four), as
// Cosine sums them: a's and b's four elements converted once a step.
TEXT ·cosine3(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), AX
	MOVQ b+8(FP), BX
	MOVQ n+16(FP), DI
	MOVQ lanes+24(FP), R8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	XORQ R9, R9

loop:
	CMPQ R9, DI
	JGE  done
	VCVTPS2PD   (AX)(R9*4), Y3
	VCVTPS2PD   (BX)(R9*4), Y4
	VFMADD231PD Y4, Y3, Y0
	VFMADD231PD Y3, Y3, Y1
	VFMADD231PD Y4, Y4, Y2
	ADDQ $4, R9
	JMP  loop

done:
	VMOVUPD Y0, (R8)
	VMOVUPD Y1, 32(R8)
	VMOVUPD Y2, 64(R8)
	VZEROUPPER
	RET

// func dots4f(q0, q1, q2, q3 *float32, v *float32, n int, sums *[4]float32)
//
// Dots4Approx's sums in float32: sixteen elements a step, eight lanes of each query in two
// registers (two chains of multiply-adds per query, added at the end), v's elements read
// once for the four; then each query's eight lanes added pairwise, three additions.
TEXT ·dots4f(SB), NOSPLIT, $0-56
	MOVQ q0+0(FP), AX
	MOVQ q1+8(FP), BX
	MOVQ q2+16(FP), CX
	MOVQ q3+24(FP), DX
	MOVQ v+32(FP), SI
	MOVQ n+40(FP), DI
	MOVQ sums+48(FP), R8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ R9, R9

loopf:
	CMPQ R9, DI
	JGE  donef
	VMOVUPS     (SI)(R9*4), Y8
	VMOVUPS     32(SI)(R9*4), Y9
	VFMADD231PS (AX)(R9*4), Y8, Y0
	VFMADD231PS (BX)(R9*4), Y8, Y1
	VFMADD231PS (CX)(R9*4), Y8, Y2
	VFMADD231PS (DX)(R9*4), Y8, Y3
	VFMADD231PS 32(AX)(R9*4), Y9, Y4
	VFMADD231PS 32(BX)(R9*4), Y9, Y5
	VFMADD231PS 32(CX)(R9*4), Y9, Y6
	VFMADD231PS 32(DX)(R9*4), Y9, Y7
	ADDQ $16, R9
	JMP  loopf

donef:
	VADDPS       Y4, Y0, Y0
	VADDPS       Y5, Y1, Y1
	VADDPS       Y6, Y2, Y2
	VADDPS       Y7, Y3, Y3
	VHADDPS      Y1, Y0, Y0     // q0 01 23, q1 01 23, q0 45 67, q1 45 67
	VHADDPS      Y3, Y2, Y2     // the same for q2 and q3
	VHADDPS      Y2, Y0, Y0     // q0..q3 0123, q0..q3 4567
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVUPS      X0, (R8)
	VZEROUPPER
	RET

// func dot1f(q *float32, v *float32, n int, sum *float32)
// One vector's dots4f: two chains of eight float32 lanes, added, then the lanes added.
TEXT ·dot1f(SB), NOSPLIT, $0-32
	MOVQ q+0(FP), AX
	MOVQ v+8(FP), SI
	MOVQ n+16(FP), DI
	MOVQ sum+24(FP), R8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ R9, R9

loop1:
	CMPQ R9, DI
	JGE  done1
	VMOVUPS     (SI)(R9*4), Y8
	VMOVUPS     32(SI)(R9*4), Y9
	VFMADD231PS (AX)(R9*4), Y8, Y0
	VFMADD231PS 32(AX)(R9*4), Y9, Y1
	ADDQ $16, R9
	JMP  loop1

done1:
	VADDPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0     // 4 lanes
	VHADDPS      X0, X0, X0     // 01 23 01 23
	VHADDPS      X0, X0, X0     // 0123
	VMOVSS       X0, (R8)
	VZEROUPPER
	RET
