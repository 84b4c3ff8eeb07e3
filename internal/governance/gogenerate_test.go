package governance

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestGoGenerateLines decides go generate commands by the //go:generate
// lines of the packages they name, each decided as a line of its own in
// its package's directory. Before, "go generate" was decided by the rules
// for go alone, so a directive running rm under deny: Bash(rm:*), or
// emptying the policy, ran on approval or under a default allow.
func TestGoGenerateLines(t *testing.T) {
	checkTreeLines(t, "go_generate_tree.txt", "  default: allow\n  deny: [Bash(rm:*)]\n", "go_generate_lines.txt")
}

// TestGenerateWords reads directives as go generate splits and expands
// them, and writes them as shell lines of the same words.
func TestGenerateWords(t *testing.T) {
	vars := map[string]string{"GOFILE": "a.go", "DOLLAR": "$"}
	for _, c := range []struct{ in, want string }{
		{`stringer -type=Pill`, `stringer '-type=Pill'`},
		{`sh -c "rm -rf x; echo \"q\""`, `sh -c 'rm -rf x; echo "q"'`},
		{`echo $GOFILE ${GOFILE}x`, `echo a.go a.gox`},
		{`rm$1 x`, `rm"${1}" x`},
		{`echo $DOLLAR{HOME} $HOME`, `echo '${HOME}' "${HOME}"`},
		{`echo a;b 'c d'`, `echo 'a;b' "'c" "d'"`},
		{`echo $ ${} ${x`, `echo '$' '' x`},
		{`if x`, `'if' x`},
	} {
		words, err := generateWords(c.in, vars)
		if err != "" {
			t.Fatalf("generateWords(%q): %s", c.in, err)
		}
		if got := strings.Join(shellWords(words), " "); got != c.want {
			t.Errorf("generateWords(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if _, err := generateWords(`echo "unterminated`, vars); err == "" {
		t.Errorf("an unterminated quoted string was read")
	}
}

// FuzzGenerateWords reads any directive: it must not panic, and the shell
// line written of its words reads back, as the bridge's shell reader
// reads it, as a command of as many words (then any its words run, sh -c
// CODE's), each literal word as it was.
func FuzzGenerateWords(f *testing.F) {
	f.Add(`sh -c "rm -rf x; echo \"q\""`)
	f.Add(`echo $GOFILE ${GOFILE}x $1 ${} ${x $$`)
	f.Add("a\t'b c' \"\\u00e9\" ;|&")
	f.Fuzz(func(t *testing.T, directive string) {
		if strings.ContainsAny(directive, "\n\r\x00") {
			return // a directive is one line of a Go file
		}
		words, err := generateWords(directive, map[string]string{"GOFILE": "a.go"})
		if err != "" || len(words) == 0 {
			return
		}
		line := strings.Join(shellWords(words), " ")
		a := shellcmd.Analyze(line, shellcmd.Options{})
		if len(a.Problems) > 0 || len(a.Commands) == 0 {
			return // the bridge asks about a line it cannot read; ":" runs nothing to it
		}
		if len(a.Commands) == 0 || len(a.Commands[0].Forms[0]) != len(words) {
			t.Fatalf("directive %q written as %q does not read back as one command of %d words", directive, line, len(words))
		}
		for i, parts := range words {
			if w := a.Commands[0].Forms[0][i]; len(parts) == 1 && !parts[0].env && w.Kind == shellcmd.Static && w.Text != parts[0].text {
				t.Fatalf("directive %q: word %d reads back as %q, want %q", directive, i, w.Text, parts[0].text)
			}
		}
	})
}
