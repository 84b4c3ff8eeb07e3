#include "textflag.h"

// Each byte compared with PCMPGTB is taken as signed: bytes of 0x80 and
// above are negative, below every bound used here, so they are neither
// word bytes, capitals nor digits.

// BETWEEN16(x, lo1, hi1, out, t) sets each byte of out to 0xff where the
// byte of x is above lo1 and below hi1 (each holds its bound in every
// byte).
#define BETWEEN16(x, lo1, hi1, out, t) \
	MOVO x, out; PCMPGTB lo1, out; \
	MOVO hi1, t; PCMPGTB x, t; \
	PAND t, out

#define BYTES(c, x) MOVQ c, R8; MOVQ R8, x; PUNPCKLQDQ x, x

// func codeStartSSE2(p *byte, n, i int, prevWord bool) int
//
// Scans p[i:n] in 16-byte steps for a capital ASCII letter or a digit
// that starts a word: the byte before it (p[i-1] for the first, whose
// kind prevWord gives) is not a letter, digit or '_'. It returns the
// offset of the first one, or the offset at which fewer than 16 bytes
// remain unscanned. SSE2 is part of the amd64 baseline, so no feature
// check is needed.
TEXT ·codeStartSSE2(SB), NOSPLIT, $0-40
	MOVQ    p+0(FP), SI
	MOVQ    n+8(FP), DX
	MOVQ    i+16(FP), AX
	MOVBQZX prevWord+24(FP), BX // bit 0: the byte before the block is a word byte
	BYTES($0x2f2f2f2f2f2f2f2f, X1) // digits: above X1, below X2
	BYTES($0x3a3a3a3a3a3a3a3a, X2)
	BYTES($0x2020202020202020, X3) // letters: with X3's bit set, above X4, below X5
	BYTES($0x6060606060606060, X4)
	BYTES($0x7b7b7b7b7b7b7b7b, X5)
	BYTES($0x5f5f5f5f5f5f5f5f, X6) // '_'
	BYTES($0x4040404040404040, X7) // capitals: above X7, below X8
	BYTES($0x5b5b5b5b5b5b5b5b, X8)

loop:
	LEAQ 16(AX), R9
	CMPQ R9, DX
	JGT  done
	MOVOU (SI)(AX*1), X0

	BETWEEN16(X0, X1, X2, X9, X10)   // X9: digits
	BETWEEN16(X0, X7, X8, X11, X10)  // X11: capitals
	POR X9, X11                      // X11: marks
	MOVO X0, X12; POR X3, X12
	BETWEEN16(X12, X4, X5, X10, X13) // X10: letters
	POR X10, X9
	MOVO X0, X10; PCMPEQB X6, X10
	POR X10, X9                      // X9: word bytes

	PMOVMSKB X9, CX  // word bytes
	PMOVMSKB X11, R10 // marks
	MOVL CX, R11
	SHLL $1, R11
	ORL  BX, R11     // bit k: the byte before byte k is a word byte
	SHRL $15, CX     // the last byte's kind, for the next block
	MOVL CX, BX
	NOTL R11
	ANDL R11, R10
	JNZ  found
	MOVQ R9, AX
	JMP  loop

found:
	BSFL R10, R10
	ADDQ R10, AX

done:
	MOVQ AX, ret+32(FP)
	RET

// func markSSE2(p *byte, n, i int) int
//
// Scans p[i:n] in 16-byte steps for a capital ASCII letter or a digit. It
// returns the offset of the first one, or the offset at which fewer than
// 16 bytes remain unscanned.
TEXT ·markSSE2(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DX
	MOVQ i+16(FP), AX
	BYTES($0x2f2f2f2f2f2f2f2f, X1) // digits: above X1, below X2
	BYTES($0x3a3a3a3a3a3a3a3a, X2)
	BYTES($0x4040404040404040, X7) // capitals: above X7, below X8
	BYTES($0x5b5b5b5b5b5b5b5b, X8)

mloop32:
	LEAQ 32(AX), R9
	CMPQ R9, DX
	JGT  mloop16
	MOVOU (SI)(AX*1), X0
	MOVOU 16(SI)(AX*1), X12
	BETWEEN16(X0, X1, X2, X9, X10)
	BETWEEN16(X0, X7, X8, X11, X10)
	POR X11, X9
	BETWEEN16(X12, X1, X2, X13, X10)
	BETWEEN16(X12, X7, X8, X11, X10)
	POR X11, X13
	POR X13, X9
	PMOVMSKB X9, CX
	TESTL CX, CX
	JNZ  mloop16 // the 16-byte steps find the exact offset
	MOVQ R9, AX
	JMP  mloop32

mloop16:
	LEAQ 16(AX), R9
	CMPQ R9, DX
	JGT  mdone
	MOVOU (SI)(AX*1), X0
	BETWEEN16(X0, X1, X2, X9, X10)
	BETWEEN16(X0, X7, X8, X11, X10)
	POR X11, X9
	PMOVMSKB X9, CX
	TESTL CX, CX
	JNZ  mfound
	MOVQ R9, AX
	JMP  mloop16

mfound:
	BSFL CX, CX
	ADDQ CX, AX

mdone:
	MOVQ AX, ret+24(FP)
	RET
