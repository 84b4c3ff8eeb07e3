package shellcmd

import (
	"os/exec"
	"testing"
)

// TestPrintfValue: the text printf -v sets where the line shows it is the
// text bash's printf -v sets, and there is none for a word computed at run
// time.
func TestPrintfValue(t *testing.T) {
	static := func(ws ...string) []Word {
		var out []Word
		for _, w := range ws {
			out = append(out, Word{Kind: Static, Text: w})
		}
		return out
	}
	for _, args := range [][]string{
		{"rm"},
		{"%s.md", "GOVERNANCE"},
		{"--", "a%%b%s"},
		{"%s"},
		{`\x2eenv`},
		{`\x72m`},
		{`\162m`},
		{`\u0072m`},
		{"%c%c", "r", "m"},
		{"%s", "r", "m"},
		{"%s%s", "r"},
		{"%b", `\x72m`},
		{"%d", "1"},
		{"%03d", "7"},
		{"%.1s%s", "rx", "m"},
		{"%5s", "rm"},
		{"%-3sx", "rm"},
		{"%x", "255"},
		{`a\0b`},
		{`r\cm`},
		{"%b", `r\cm`},
		{`\e[31m`},
		{"x%"},
		{"%q", "a b"},
		{"%b", `r\0155`},
		{"%s%b", `\0155`, `r\0155`},
		{`r\0155`},
		{"%5b", `\01`},
		{"%b%b", `r\0155`, `\0`},
		{"%b", `\00155`, `\\0155`, `\0`, `x\0`},
		{"%b %s", `\0155`, `\0155`},
	} {
		got, ok := printfValue(static(args...))
		if !ok {
			continue // read as computed at run time: asked about
		}
		script := `printf -v R "$@" && printf %s "$R"`
		want, err := exec.Command("bash", append([]string{"-c", script, "bash"}, args...)...).Output()
		if err != nil {
			t.Errorf("printfValue(%q) = %q, but bash's printf -v fails: %v", args, got, err)
			continue
		}
		if got != string(want) {
			t.Errorf("printfValue(%q) = %q; bash's printf -v sets %q", args, got, want)
		}
	}
	for _, args := range [][]Word{{{Kind: Dynamic, Text: "$f"}}, nil, static("--")} {
		if got, ok := printfValue(args); ok {
			t.Errorf("printfValue(%v) = %q, true; want no value", args, got)
		}
	}
}
