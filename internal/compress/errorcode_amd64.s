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

// func codeStartSSE2(p *byte, n, i int, prevWord, prevSpace bool) int
//
// Scans p[i:n-1] in 16-byte steps for a place where a code can start
// (canStart): a byte that starts a word (the byte before it is not a
// letter, digit or '_'; for the first, prevWord gives the kind of p[i-1])
// and is a capital followed by a capital or a digit, or a digit after a
// space (prevSpace: p[i-1] is one). Each step also reads the byte after
// its 16. It returns the offset of the first such place, or the offset at
// which fewer than 17 bytes remain unscanned. SSE2 is part of the amd64
// baseline, so no feature check is needed.
TEXT ·codeStartSSE2(SB), NOSPLIT, $0-40
	MOVQ    p+0(FP), SI
	MOVQ    n+8(FP), DX
	MOVQ    i+16(FP), AX
	MOVBQZX prevWord+24(FP), BX  // bit 0: the byte before the step is a word byte
	MOVBQZX prevSpace+25(FP), DI // bit 0: the byte before the step is a space
	BYTES($0x2f2f2f2f2f2f2f2f, X1) // digits: above X1, below X2
	BYTES($0x3a3a3a3a3a3a3a3a, X2)
	BYTES($0x2020202020202020, X3) // letters: with X3's bit set, above X4, below X5; X3 is also ' '
	BYTES($0x6060606060606060, X4)
	BYTES($0x7b7b7b7b7b7b7b7b, X5)
	BYTES($0x5f5f5f5f5f5f5f5f, X6) // '_'
	BYTES($0x4040404040404040, X7) // capitals: above X7, below X8
	BYTES($0x5b5b5b5b5b5b5b5b, X8)

loop:
	LEAQ 17(AX), R9
	CMPQ R9, DX
	JGT  done
	MOVOU (SI)(AX*1), X0
	MOVOU 1(SI)(AX*1), X14 // each byte's successor

	BETWEEN16(X0, X1, X2, X9, X10)   // X9: digits
	BETWEEN16(X0, X7, X8, X11, X10)  // X11: capitals
	MOVO X0, X12; POR X3, X12
	BETWEEN16(X12, X4, X5, X10, X13) // X10: letters
	POR X9, X10
	MOVO X0, X12; PCMPEQB X6, X12
	POR X12, X10                     // X10: word bytes
	BETWEEN16(X14, X1, X2, X12, X13)
	BETWEEN16(X14, X7, X8, X15, X13)
	POR X15, X12                     // X12: followed by a capital or a digit
	PAND X12, X11                    // X11: capitals so followed
	MOVO X0, X12; PCMPEQB X3, X12    // X12: spaces

	PMOVMSKB X10, CX  // word bytes
	PMOVMSKB X12, R12 // spaces
	PMOVMSKB X9, R10  // digits
	PMOVMSKB X11, R11 // capitals followed by a capital or a digit
	MOVL R12, R13
	SHLL $1, R13
	ORL  DI, R13      // bit k: the byte before byte k is a space
	ANDL R13, R10     // digits after a space
	ORL  R11, R10
	MOVL CX, R13
	SHLL $1, R13
	ORL  BX, R13      // bit k: the byte before byte k is a word byte
	NOTL R13
	ANDL R13, R10
	SHRL $15, CX      // the last byte's kinds, for the next step
	MOVL CX, BX
	SHRL $15, R12
	MOVL R12, DI
	ANDL $0xffff, R10
	JNZ  found
	LEAQ 16(AX), AX
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
