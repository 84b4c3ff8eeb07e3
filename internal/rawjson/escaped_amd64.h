// ESCAPED jumps to fail unless the byte at SI+R11 (R11 < DX) is one a
// backslash escapes in two bytes: " \ / b f n r t (R10 and R12 are
// clobbered). R12 holds those characters one bit each: '"' and '/' below
// 0x40, '\\' b f n r t from 0x40 on.
#define ESCAPED(fail) \
	MOVBLZX (SI)(R11*1), R10; \
	CMPL R10, $0x80; JAE fail; \
	MOVQ $0x800400000000, R12; \
	CMPL R10, $0x40; JB 3(PC); \
	MOVQ $0x14404410000000, R12; SUBL $0x40, R10; \
	BTQ R10, R12; JCC fail
