package governance

import (
	"fmt"
	"strings"
)

// commandControlsVerdict denies a command line, or an argument of one,
// that holds a control character other than a tab or a newline: C0
// controls (a carriage return, ^U, escape), DEL, C1 controls, and the
// Unicode line separators and bidirectional overrides. An IDE that types
// the line into a terminal (as VS Code and JetBrains run terminal
// commands) has its line editor act on them (a carriage return ends the
// line, ^U erases it, DEL the character before), so "echo ok\x15rm x"
// runs rm there, not echo; and a person shown the line sees what a
// terminal or the bidirectional algorithm makes of it, not what runs.
func commandControlsVerdict(req *Request) (verdict, bool) {
	for i := -1; i < len(req.Argv); i++ {
		s := req.Command
		if i >= 0 {
			s = req.Argv[i]
		}
		if r, ok := controlIn(s); ok {
			return verdict{value: Deny, ref: "control-characters",
				ruleTx: "deny command lines holding control characters (built-in)",
				reason: fmt.Sprintf("running %q: it holds the control character %U, which a terminal the line is typed into, or a display of it, reads differently from a shell", strings.TrimSpace(req.Command), r)}, true
		}
	}
	return verdict{}, false
}

// controlIn returns the first control character of s that
// commandControlsVerdict refuses.
func controlIn(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
		case r < 0x20 || r >= 0x7f && r <= 0x9f,
			r == '\u2028' || r == '\u2029',
			r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e' || r == '\u200f', r == '\u061c':
			return r, true
		}
	}
	return 0, false
}
