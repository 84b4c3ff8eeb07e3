#include "textflag.h"

// func plainRunSSE2(b []byte, i int) int
//
// Scans b from i in 16-byte steps for a byte that is '"', '\\' or below
// 0x20. It returns the offset of the first such byte, or the offset at
// which fewer than 16 bytes remain unscanned. SSE2 is part of the amd64
// baseline, so no feature check is needed.
TEXT ·plainRunSSE2(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	MOVQ i+24(FP), AX
	MOVQ $0x2222222222222222, R8
	MOVQ R8, X1
	PUNPCKLQDQ X1, X1
	MOVQ $0x5c5c5c5c5c5c5c5c, R8
	MOVQ R8, X2
	PUNPCKLQDQ X2, X2
	MOVQ $0x1f1f1f1f1f1f1f1f, R8
	MOVQ R8, X3
	PUNPCKLQDQ X3, X3

loop32:
	LEAQ 32(AX), R9
	CMPQ R9, DX
	JGT  loop16
	MOVOU (SI)(AX*1), X0
	MOVOU 16(SI)(AX*1), X7
	MOVO X0, X4
	PCMPEQB X1, X4
	MOVO X0, X5
	PCMPEQB X2, X5
	MOVO X0, X6
	PMINUB X3, X6
	PCMPEQB X0, X6
	POR X5, X4
	POR X6, X4
	MOVO X7, X8
	PCMPEQB X1, X8
	MOVO X7, X9
	PCMPEQB X2, X9
	MOVO X7, X10
	PMINUB X3, X10
	PCMPEQB X7, X10
	POR X9, X8
	POR X10, X8
	POR X8, X4
	PMOVMSKB X4, CX
	TESTL CX, CX
	JNZ  loop16 // the 16-byte steps find the exact offset
	MOVQ R9, AX
	JMP  loop32

loop16:
	LEAQ 16(AX), R9
	CMPQ R9, DX
	JGT  done
	MOVOU (SI)(AX*1), X0
	MOVO X0, X4
	PCMPEQB X1, X4
	MOVO X0, X5
	PCMPEQB X2, X5
	MOVO X0, X6
	PMINUB X3, X6
	PCMPEQB X0, X6
	POR X5, X4
	POR X6, X4
	PMOVMSKB X4, CX
	TESTL CX, CX
	JNZ  found
	MOVQ R9, AX
	JMP  loop16

found:
	BSFL CX, CX
	ADDQ CX, AX

done:
	MOVQ AX, ret+32(FP)
	RET
