package governance

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestResponseFileArguments: rustc, the assembler, the linkers, binutils,
// LLVM's tools and javac given an @file read their arguments from it, and
// are asked about whatever rule allows them; a word holding @ elsewhere,
// and a program that reads no response file, are not.
func TestResponseFileArguments(t *testing.T) {
	tests := []struct {
		line string
		ask  bool
	}{
		{"rustc @args", true},
		{"rustc --edition 2021 @args", true},
		{"strings @args", true},
		{"as -o x.o @args", true},
		{"ld @objs.rsp -o app", true},
		{"x86_64-linux-gnu-objdump @args", true},
		{"ld.lld @args", true},
		{"llvm-objdump @args", true},
		{"nm-2.40 @args", true},
		{"javac @sources.txt", true},
		{`rustc "@$F"`, true},
		{"env rustc @args", true},
		{"rustc main.rs -o out@1", false},
		{"strings a.out", false},
		{"echo @args", false},
		{"git log --format=%an@x", false},
		{"npm install @types/node", false},
		{"rustc @", false},
	}
	for _, tt := range tests {
		a := shellcmd.Analyze(tt.line, shellcmd.Options{})
		asked := false
		for _, c := range a.Commands {
			if v, ok := responseFileVerdict(c); ok && v.value == RequireApproval {
				asked = true
			}
		}
		if asked != tt.ask {
			t.Errorf("responseFileVerdict(%q) asks %v; want %v", tt.line, asked, tt.ask)
		}
	}
}
