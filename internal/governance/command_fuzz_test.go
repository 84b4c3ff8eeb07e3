package governance

import (
	"path"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// FuzzDecideCommand feeds random shell lines to the engine under a policy
// that denies rm and curl and allows echo and ls: no line it allows may
// run rm or curl, or a command whose name is not static, as a separate
// walk of mvdan.cc/sh's bash tree finds them.
func FuzzDecideCommand(f *testing.F) {
	e, root := corpusFuzz(f)
	f.Fuzz(func(t *testing.T, line string) {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root})
		if d.Value == "" || d.Rule == "" {
			t.Fatalf("%q: incomplete decision %+v", line, d)
		}
		if d.Value != Allow {
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
		if err != nil {
			t.Fatalf("%q: allowed, but bash does not parse it: %v", line, err)
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			word := call.Args[0]
			for _, p := range word.Parts {
				switch p.(type) {
				case *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted:
				default:
					t.Fatalf("%q: allowed, but a command word is not static", line)
				}
			}
			name, err := expand.Literal(nil, word)
			if err != nil {
				t.Fatalf("%q: allowed, but a command word does not expand: %v", line, err)
			}
			name = strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "")))
			if name == "rm" || name == "curl" || strings.ContainsAny(name, "*?[") {
				t.Fatalf("%q: allowed, but it runs %q", line, name)
			}
			return true
		})
	})
}

// BenchmarkDecideCommand decides a mix of command lines an agent sends.
func BenchmarkDecideCommand(b *testing.B) {
	e, root := corpusEngine(b)
	lines := []string{
		"ls -la",
		"git status",
		"npm run test -- --watch",
		"go test ./... 2>&1 | tail -20",
		"cd src && grep -rn 'TODO' . | head -50",
		"echo $(git rev-parse HEAD) > out.txt",
		"FOO=1 timeout 60 make build && ./bin/app --version",
		"find . -name '*.go' -exec gofmt -l {} +",
		"bash -c 'set -e; go vet ./...; go build ./...'",
		"python3 -c 'import sys; print(sys.version)'",
		"for f in *.md; do wc -l \"$f\"; done",
		"cat <<'EOF' > notes.txt\nline one\nit's two\nEOF",
		"sudo -u root env A=1 nice -n 5 rm -rf /tmp/x",
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e.Decide(Request{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: lines[i%len(lines)], Cwd: root})
	}
}
