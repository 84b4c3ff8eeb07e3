#include "textflag.h"
#include "escaped_amd64.h"

// SPECIAL16 sets each byte of out to 0xff where the byte of x is '"', '\\'
// or below 0x20 (X1, X2 and X3 hold '"', '\\' and 0x1f in every byte).
#define SPECIAL16(x, out, t1, t2) \
	MOVO x, out; PCMPEQB X1, out; \
	MOVO x, t1; PCMPEQB X2, t1; \
	MOVO x, t2; PMINUB X3, t2; PCMPEQB x, t2; \
	POR t1, out; POR t2, out

// SPECIALS loads X1, X2 and X3 with '"', '\\' and 0x1f in every byte, as
// SPECIAL16 wants them (R8 is clobbered).
#define SPECIALS \
	MOVQ $0x2222222222222222, R8; MOVQ R8, X1; PUNPCKLQDQ X1, X1; \
	MOVQ $0x5c5c5c5c5c5c5c5c, R8; MOVQ R8, X2; PUNPCKLQDQ X2, X2; \
	MOVQ $0x1f1f1f1f1f1f1f1f, R8; MOVQ R8, X3; PUNPCKLQDQ X3, X3

// ANY32 sets CX to a mask that is nonzero when one of the 32 bytes at
// SI+AX is '"', '\\' or below 0x20 (X0 and X4-X10 are clobbered).
#define ANY32 \
	MOVOU (SI)(AX*1), X0; MOVOU 16(SI)(AX*1), X7; \
	SPECIAL16(X0, X4, X5, X6); SPECIAL16(X7, X8, X9, X10); \
	POR X8, X4; PMOVMSKB X4, CX

// STEP16 is the body of a loop at label loop that reads SI+AX 16 bytes at
// a time: AX moves past each block without a special byte; it jumps to
// done once fewer than 16 bytes remain, and to found, with CX the block's
// SPECIAL16 mask, at a block with one. Each block read is ORed into acc
// (R9, X0 and X4-X6 are clobbered).
#define STEP16(loop, done, found, acc) \
	LEAQ 16(AX), R9; CMPQ R9, DX; JGT done; \
	MOVOU (SI)(AX*1), X0; POR X0, acc; SPECIAL16(X0, X4, X5, X6); \
	PMOVMSKB X4, CX; TESTL CX, CX; JNZ found; \
	MOVQ R9, AX; JMP loop

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
	SPECIALS

loop32:
	LEAQ 32(AX), R9
	CMPQ R9, DX
	JGT  loop16
	ANY32
	TESTL CX, CX
	JNZ  loop16 // the 16-byte steps find the exact offset
	MOVQ R9, AX
	JMP  loop32

loop16:
	STEP16(loop16, done, found, X14) // X14 is not read

found:
	BSFL CX, CX
	ADDQ CX, AX

done:
	MOVQ AX, ret+32(FP)
	RET

// CLEAN32 jumps to fail, with CX (the SPECIAL16 mask of the 32 bytes at
// SI+AX, which X0 and X7 hold) unchanged, unless every special byte of
// the block is a backslash that starts one of the escapes \n \t \r \"
// within the block, or the '"' such an escape ends with: a block with
// no special byte is clean too. B is the block's backslashes and E = B<<1
// the bytes they escape; the block is clean when no backslash is its last
// byte or escaped (B>>31, B&E), no quote or control character is
// unescaped (CX&^B&^E) and every escaped byte is n, t, r or '"'
// (E&^SQ). R8 and R10-R15 are clobbered.
#define CLEAN32(fail) \
	MOVO X0, X4; PCMPEQB X2, X4; PMOVMSKB X4, R10; \
	MOVO X7, X4; PCMPEQB X2, X4; PMOVMSKB X4, R11; \
	SHLL $16, R11; ORL R11, R10; \
	MOVO X0, X4; PCMPEQB X11, X4; MOVO X0, X5; PCMPEQB X12, X5; POR X5, X4; \
	MOVO X0, X5; PCMPEQB X13, X5; POR X5, X4; MOVO X0, X5; PCMPEQB X1, X5; POR X5, X4; \
	PMOVMSKB X4, R12; \
	MOVO X7, X4; PCMPEQB X11, X4; MOVO X7, X5; PCMPEQB X12, X5; POR X5, X4; \
	MOVO X7, X5; PCMPEQB X13, X5; POR X5, X4; MOVO X7, X5; PCMPEQB X1, X5; POR X5, X4; \
	PMOVMSKB X4, R13; SHLL $16, R13; ORL R13, R12; \
	MOVL R10, R15; SHLL $1, R15; \
	MOVL R10, R11; SHRL $31, R11; \
	MOVL R10, R8; ANDL R15, R8; ORL R8, R11; \
	MOVL R10, R14; ORL R15, R14; NOTL R14; ANDL CX, R14; ORL R14, R11; \
	NOTL R12; ANDL R15, R12; ORL R12, R11; \
	TESTL R11, R11; JNZ fail

// BLOCK32 jumps to tail once fewer than 32 bytes remain at SI+AX; else it
// sets R9 to AX+32, loads the 32 bytes at SI+AX into X0 and X7, ORs them
// into X14 and sets CX to their SPECIAL16 mask, a bit a byte (X4-X6,
// X8-X10 and R13 are clobbered).
#define BLOCK32(tail) \
	LEAQ 32(AX), R9; CMPQ R9, DX; JGT tail; \
	MOVOU (SI)(AX*1), X0; MOVOU 16(SI)(AX*1), X7; POR X0, X14; POR X7, X14; \
	SPECIAL16(X0, X4, X5, X6); SPECIAL16(X7, X8, X9, X10); \
	PMOVMSKB X4, CX; PMOVMSKB X8, R13; SHLL $16, R13; ORL R13, CX

// func stringRunSSE2(b []byte, i int) (end int, seen uint64)
//
// Scans b from i as plainRunSSE2 does, but steps over each two-byte escape
// other than \u (\" \\ \/ \b \f \n \r \t) and goes on: it returns the
// offset of the first '"', control character or other backslash, or an
// offset at which fewer than 16 bytes remain unscanned. seen is the OR of
// the bytes it read, eight bytes to a word, folded into one word: every
// byte from i to end is among them (the byte an escape's backslash escapes
// may not be, but it is one of " \ / b f n r t), and some bytes of b
// after end may be too. X14 collects them. Text with an
// escaped newline every few dozen bytes is then read in one call. The
// special bytes of a 32-byte block are stepped through in its mask
// (sbits), so an escape costs the block no second reading; once a block
// had escapes, each block is first tested whole (CLEAN32), and only one
// with another kind of special byte is stepped through.
TEXT ·stringRunSSE2(SB), NOSPLIT, $0-48
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	MOVQ i+24(FP), AX
	SPECIALS
	MOVQ $0x6e6e6e6e6e6e6e6e, R8; MOVQ R8, X11; PUNPCKLQDQ X11, X11
	MOVQ $0x7474747474747474, R8; MOVQ R8, X12; PUNPCKLQDQ X12, X12
	MOVQ $0x7272727272727272, R8; MOVQ R8, X13; PUNPCKLQDQ X13, X13
	PXOR X14, X14

sloop32:
	BLOCK32(sloop16)
	TESTL CX, CX
	JNZ  sclean
	MOVQ R9, AX
	JMP  sloop32

// A block with a special byte: if it is clean, the text has escapes, and
// the blocks after it are read by eloop32.
sclean:
	CLEAN32(sbits)
	MOVQ R9, AX

// eloop32 reads blocks as sloop32 does, but tests each for CLEAN32 whether
// it has special bytes or not, without a branch on which (in text with an
// escaped newline every few dozen bytes, about every other block has one,
// and the branch was mispredicted as often): only a block that is not
// clean goes to sbits.
eloop32:
	BLOCK32(sloop16)
	CLEAN32(sbits)
	MOVQ R9, AX
	JMP  eloop32

// CX has a bit for each special byte of the 32 at AX not yet stepped over.
sbits:
	BSFL CX, R14
	LEAQ (AX)(R14*1), R15
	CMPB (SI)(R15*1), $0x5c
	JNE  sstop // a quote or a control character
	LEAQ 1(R15), R11
	CMPQ R11, DX
	JGE  sstop // a backslash that ends b
	ESCAPED(sstop)
	CMPL R14, $31
	JAE  snext // the escaped byte starts the next block
	BTRL R14, CX
	INCL R14
	BTRL R14, CX // the escaped byte, which may be '"' or '\\'
	TESTL CX, CX
	JNZ  sbits
	MOVQ R9, AX
	JMP  sloop32

snext:
	LEAQ 2(R15), AX
	JMP  sloop32

sstop:
	MOVQ R15, AX
	JMP  sdone

sloop16:
	STEP16(sloop16, sdone, sfound, X14)

sfound:
	BSFL CX, CX
	ADDQ CX, AX
	MOVBLZX (SI)(AX*1), R10
	CMPL R10, $0x5c
	JNE  sdone // a quote or a control character
	LEAQ 1(AX), R11
	CMPQ R11, DX
	JGE  sdone // a backslash that ends b
	ESCAPED(sdone) // \u or an invalid escape stops the scan
	LEAQ 2(AX), AX
	JMP  sloop32

sdone:
	MOVQ   AX, end+32(FP)
	MOVQ   X14, R8
	PSRLDQ $8, X14
	MOVQ   X14, R10
	ORQ    R10, R8
	MOVQ   R8, seen+40(FP)
	RET
