package governance

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseRule checks that rule parsing never panics and that every rule
// it accepts can be matched against requests.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{
		"Bash(npm run test:*)", "Read(./src/**)", "Read(**/.env)", "Edit(**/*.go)", "Write(//etc/**)",
		"WebFetch(domain:example.com)", "WebSearch", "mcp__github__*", "Bash(git * main)", "Read(~/x/**)",
		"Read(/docs/*.md)", "Bash()", "Read(", "Edit([)", "Read(../x)", "Task(x)",
		"Reed", "Read(**/.env )", "read(x)", "Read(**/*.{a,b})", "Bash(npm:* x)", "WebFetch(domain:a:1)", "Web*",
		"Read(**/.e\u200bnv)", "mcp__", "Nonsense*",
	} {
		f.Add(s)
	}
	e := NewEngine(nil, EngineOptions{Roots: []string{"/w"}, Home: "/home/u"})
	f.Fuzz(func(t *testing.T, text string) {
		r, err := parseRule(text, "/w", "/home/u")
		if err != nil {
			return
		}
		r.value, r.where, r.ref = Deny, "fuzz:1", "fuzz"
		e.policy.rules = []*rule{r}
		for _, req := range []Request{
			{Action: ActionFSRead, Paths: []string{"/w/src/a.go", "/w/.env"}, Cwd: "/w"},
			{Action: ActionTerminalCreate, Command: "npm run test && ls", Cwd: "/w"},
			{Action: ActionToolCall, Tool: "WebFetch", URL: "https://example.com/x"},
			{Action: ActionToolCall, Tool: text},
		} {
			d := e.Decide(req)
			if d.Value == "" || d.Rule == "" {
				t.Fatalf("rule %q: incomplete decision %+v", text, d)
			}
		}
	})
}

// FuzzDecidePath checks that no path, however written, gets a decision
// more lenient than the deny rule for its cleaned form.
func FuzzDecidePath(f *testing.F) {
	for _, s := range []string{"/w/.env", "/w/src/../.env", "/w//.env", "/w/./.ENV", "../w/.env", "/w/a/b/../../.env", ".env"} {
		f.Add(s)
	}
	r := testRule(f, "Read(**/.env)", "/w", Deny, "fuzz:1", "fuzz")
	allow := testRule(f, "Read", "/w", Allow, "fuzz:2", "fuzz-allow")
	e := NewEngine(&Policy{Default: Allow, DefaultWhere: "fuzz", rules: []*rule{r, allow}}, EngineOptions{Roots: []string{"/w"}, Home: "/home/u"})
	f.Fuzz(func(t *testing.T, p string) {
		d := e.Decide(Request{Action: ActionFSRead, Paths: []string{p}, Cwd: "/w/sub"})
		clean := absPath(p, "/w/sub", "/home/u")
		if strings.EqualFold(clean[strings.LastIndex(clean, "/")+1:], ".env") && d.Value != Deny {
			t.Fatalf("%q (%s) = %v; want deny", p, clean, d)
		}
	})
}

// FuzzLoadPolicy checks that any GOVERNANCE.md either loads into a policy
// that decides, or fails with positioned errors, and never panics.
func FuzzLoadPolicy(f *testing.F) {
	for _, file := range []string{"testdata/policy/GOVERNANCE.md", "testdata/errors/bad-rules/GOVERNANCE.md",
		"testdata/errors/unknown-field/GOVERNANCE.md", "testdata/errors/bad-yaml/GOVERNANCE.md", "../../GOVERNANCE.md"} {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("---\nschema: governance.workspace/v1\n---\n"))
	f.Add([]byte("---\n&a [*a]\n---\n"))
	dir := f.TempDir()
	file := filepath.Join(dir, "GOVERNANCE.md")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := LoadPolicy(file)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v is not a non-empty ErrorList", err)
			}
			for _, e := range list {
				if e.File == file && e.Line == 0 {
					t.Fatalf("error without a line: %v", e)
				}
			}
			return
		}
		e := NewEngine(p, EngineOptions{Roots: []string{dir}})
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: "ls && rm -rf /", Cwd: dir})
		if d.Value == "" || d.Rule == "" {
			t.Fatalf("incomplete decision %+v", d)
		}
	})
}
