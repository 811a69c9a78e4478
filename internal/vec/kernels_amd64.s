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
