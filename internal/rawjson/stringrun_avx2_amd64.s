#include "textflag.h"
#include "escaped_amd64.h"

// BROADCAST fills every byte of y (x its low half) with the byte c (R8 is
// clobbered).
#define BROADCAST(c, x, y) \
	MOVQ c, R8; VMOVQ R8, x; VPBROADCASTB x, y

// SPECIAL32 sets each byte of out to 0xff where the byte of x is '"', '\\'
// or below 0x20, and each byte of bs to 0xff where it is '\\' (Y1, Y2 and
// Y3 hold '"', '\\' and 0x1f in every byte; t is clobbered).
#define SPECIAL32(x, out, bs, t) \
	VPCMPEQB Y1, x, out; VPCMPEQB Y2, x, bs; \
	VPMINUB Y3, x, t; VPCMPEQB x, t, t; \
	VPOR bs, out, out; VPOR t, out, out

// ESCAPES32 sets each byte of out to 0xff where the byte of x is one that a
// block passed whole may hold escaped: n, t, r or '"' (Y11, Y12, Y13 and
// Y1 hold them in every byte; t is clobbered).
#define ESCAPES32(x, out, t) \
	VPCMPEQB Y11, x, out; VPCMPEQB Y12, x, t; VPOR t, out, out; \
	VPCMPEQB Y13, x, t; VPOR t, out, out; \
	VPCMPEQB Y1, x, t; VPOR t, out, out

// LOAD64 reads the 64 bytes at SI+AX into Y0 and Y7, ORs them into Y14,
// and sets CX to their mask of special bytes ('"', '\\', below 0x20), one
// bit a byte; Y5 and Y9 keep their backslashes for CLEAN64 (Y4, Y6, Y8,
// Y10 and R13 are clobbered).
#define LOAD64 \
	VMOVDQU (SI)(AX*1), Y0; VMOVDQU 32(SI)(AX*1), Y7; \
	VPOR Y0, Y14, Y14; VPOR Y7, Y14, Y14; \
	SPECIAL32(Y0, Y4, Y5, Y6); SPECIAL32(Y7, Y8, Y9, Y10); \
	VPMOVMSKB Y4, CX; VPMOVMSKB Y8, R13; SHLQ $32, R13; ORQ R13, CX

// CLEAN64 is plainrun_amd64.s's CLEAN32 for the 64 bytes LOAD64 read: it
// jumps to fail, with CX unchanged, unless every special byte of the block
// is a backslash that starts one of the escapes \n \t \r \" within the
// block, or the '"' such an escape ends with. B is the block's backslashes
// and E = B<<1 the bytes they escape; the block is clean when no backslash
// is its last byte or escaped (B>>63, B&E), no quote or control character
// is unescaped (CX&^B&^E) and every escaped byte is n, t, r or '"'
// (E&^SQ). R8 and R10-R15, Y4, Y6, Y8 and Y10 are clobbered.
#define CLEAN64(fail) \
	VPMOVMSKB Y5, R10; VPMOVMSKB Y9, R13; SHLQ $32, R13; ORQ R13, R10; \
	ESCAPES32(Y0, Y4, Y6); ESCAPES32(Y7, Y8, Y10); \
	VPMOVMSKB Y4, R12; VPMOVMSKB Y8, R13; SHLQ $32, R13; ORQ R13, R12; \
	MOVQ R10, R15; SHLQ $1, R15; \
	MOVQ R10, R11; SHRQ $63, R11; \
	MOVQ R10, R8; ANDQ R15, R8; ORQ R8, R11; \
	MOVQ R10, R14; ORQ R15, R14; NOTQ R14; ANDQ CX, R14; ORQ R14, R11; \
	NOTQ R12; ANDQ R15, R12; ORQ R12, R11; \
	TESTQ R11, R11; JNZ fail

// func stringRunAVX2(b []byte, i int) (end int, seen uint64)
//
// stringRunSSE2 64 bytes a step, for processors with AVX2 (the caller
// checks): it returns the offset of the first '"', control character or
// backslash that does not start one of the escapes \" \\ \/ \b \f \n \r \t,
// or an offset at which fewer than 16 bytes remain unscanned; seen is the
// OR of the bytes it read, eight to a word: every byte from i to end but
// the bytes escapes escape (each one of " \ / b f n r t), and maybe some
// bytes of b after end. Y14 collects them. Once fewer than 64 bytes
// remain it reads 16 at a time, with 128-bit instructions.
TEXT ·stringRunAVX2(SB), NOSPLIT, $0-48
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	MOVQ i+24(FP), AX
	BROADCAST($0x22, X1, Y1)
	BROADCAST($0x5c, X2, Y2)
	BROADCAST($0x1f, X3, Y3)
	BROADCAST($0x6e, X11, Y11)
	BROADCAST($0x74, X12, Y12)
	BROADCAST($0x72, X13, Y13)
	VPXOR Y14, Y14, Y14

aloop64:
	LEAQ 64(AX), R9
	CMPQ R9, DX
	JGT  atail
	LOAD64
	TESTQ CX, CX
	JNZ  aclean
	MOVQ R9, AX
	JMP  aloop64

// A block with a special byte: if it is clean, the text has escapes, and
// the blocks after it are read by aeloop64, which tests each for CLEAN64
// whether it has special bytes or not, as stringRunSSE2's eloop32 does.
aclean:
	CLEAN64(abits)
	MOVQ R9, AX

aeloop64:
	LEAQ 64(AX), R9
	CMPQ R9, DX
	JGT  atail
	LOAD64
	CLEAN64(abits)
	MOVQ R9, AX
	JMP  aeloop64

// CX has a bit for each special byte of the 64 at AX not yet stepped over.
abits:
	BSFQ CX, R14
	LEAQ (AX)(R14*1), R15
	CMPB (SI)(R15*1), $0x5c
	JNE  astop // a quote or a control character
	LEAQ 1(R15), R11
	CMPQ R11, DX
	JGE  astop // a backslash that ends b
	ESCAPED(astop)
	CMPQ R14, $63
	JAE  anext // the escaped byte starts the next block
	BTRQ R14, CX
	INCQ R14
	BTRQ R14, CX // the escaped byte, which may be '"' or '\\'
	TESTQ CX, CX
	JNZ  abits
	MOVQ R9, AX
	JMP  aloop64

anext:
	LEAQ 2(R15), AX
	JMP  aloop64

astop:
	MOVQ R15, AX
	JMP  adone

// Fewer than 64 bytes remain: X14 takes what Y14 collected, and the scan
// goes on 16 bytes at a time.
atail:
	VEXTRACTI128 $1, Y14, X15
	VPOR         X15, X14, X14

atloop16:
	LEAQ      16(AX), R9
	CMPQ      R9, DX
	JGT       adone
	VMOVDQU   (SI)(AX*1), X0
	VPOR      X0, X14, X14
	VPCMPEQB  X1, X0, X4
	VPCMPEQB  X2, X0, X5
	VPMINUB   X3, X0, X6
	VPCMPEQB  X0, X6, X6
	VPOR      X5, X4, X4
	VPOR      X6, X4, X4
	VPMOVMSKB X4, CX
	TESTL     CX, CX
	JNZ       atfound
	MOVQ      R9, AX
	JMP       atloop16

atfound:
	BSFL    CX, CX
	ADDQ    CX, AX
	MOVBLZX (SI)(AX*1), R10
	CMPL    R10, $0x5c
	JNE     adone // a quote or a control character
	LEAQ    1(AX), R11
	CMPQ    R11, DX
	JGE     adone // a backslash that ends b
	ESCAPED(adone) // \u or an invalid escape stops the scan
	LEAQ    2(AX), AX
	JMP     atloop16

// Y14 (its upper half zero once atail ran) is folded into one word.
adone:
	VEXTRACTI128 $1, Y14, X15
	VPOR         X15, X14, X14
	VPSRLDQ      $8, X14, X15
	VPOR         X15, X14, X14
	VMOVQ        X14, R8
	VZEROUPPER
	MOVQ         AX, end+32(FP)
	MOVQ         R8, seen+40(FP)
	RET
