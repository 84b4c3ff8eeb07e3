package governance

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestCCDriverOptions: a C compiler driver given -B, a spec file, a plugin
// or a response file runs programs the bridge does not read, and is asked
// about whatever rule allows it; -wrapper is asked about only for a
// versioned name (the command table reads it for the others); everyday
// compile options are not.
func TestCCDriverOptions(t *testing.T) {
	tests := []struct {
		line string
		ask  bool
	}{
		{"gcc -fsyntax-only -B./tools/ a.c", true},
		{"gcc -B tools -c a.c", true},
		{"cc --prefix=tools a.c", true},
		{"gcc -specs=evil.specs a.c", true},
		{"gcc --specs evil.specs a.c", true},
		{"clang -fplugin=./p.so a.c", true},
		{"g++ @opts.rsp a.cc", true},
		{"gcc-12 -wrapper rm,x a.c", true},
		{"nice gcc -B. a.c", true},
		{`gcc "-B$D" a.c`, true},
		{`gcc "$SRC"`, false},
		{"gcc -wrapper rm,x a.c", false},
		{"gcc -fplugin-arg-x-y=1 a.c", false},
		{"gcc -Wall -O2 -Iinclude -o app a.c", false},
		{"cpp -P a.c", false},
		{"gcc-12 -fsyntax-only a.c", false},
		{"make -B", false},
	}
	for _, tt := range tests {
		a := shellcmd.Analyze(tt.line, shellcmd.Options{})
		asked := false
		for _, c := range a.Commands {
			if v, ok := ccDriverVerdict(c); ok && v.value == RequireApproval {
				asked = true
			}
		}
		if asked != tt.ask {
			t.Errorf("ccDriverVerdict(%q) asks %v; want %v", tt.line, asked, tt.ask)
		}
	}
}
