package compress

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOffloadedBySession: Offloaded names the files offloaded for a
// session, as written and resolved, and no other session's.
func TestOffloadedBySession(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 1 << 30, OffloadTokens: 100})
	h.newSession(2, "/repo", "s2")
	h.prompt(3, "s1", "run it")
	h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Run", "kind": "execute", "status": "in_progress"}))
	h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed",
		"content": []any{map[string]any{"type": "content", "content": textBlock(strings.Repeat("line of build output\n", 500))}}}))
	h.untilIDE(func(m []byte) bool { return str(m, "params", "update", "status") == "completed" })
	files, err := filepath.Glob(filepath.Join(h.p.Store().OffloadedDir(), "*.md"))
	if err != nil || len(files) != 1 {
		t.Fatalf("offloaded files %v (%v), want one", files, err)
	}
	path := files[0]
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(filepath.Dir(path), "other.md")
	if err := os.WriteFile(other, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantOffloaded(t, h.p, []offloadedCase{
		{"s1", path, true},
		{"s1", resolved, true},
		{"s2", path, false},
		{"s3", path, false},
		{"s1", other, false},
		{"s1", filepath.Dir(path), false},
		{"s1", path + "/", false},
		{"s1", filepath.Dir(path) + "/x/../" + filepath.Base(path), false}, // compared exactly, not cleaned
	})
}

// offloadedCase is a question to Pipeline.Offloaded and its answer.
type offloadedCase struct {
	session, path string
	want          bool
}

// wantOffloaded asks p.Offloaded each case's question.
func wantOffloaded(t *testing.T, p *Pipeline, cases []offloadedCase) {
	t.Helper()
	for _, tt := range cases {
		if got := p.Offloaded(tt.session, tt.path); got != tt.want {
			t.Errorf("Offloaded(%q, %q) = %v, want %v", tt.session, tt.path, got, tt.want)
		}
	}
}

// TestOffloadSetBounded: a session remembers its latest
// maxSessionOffloads offloads and forgets the oldest.
func TestOffloadSetBounded(t *testing.T) {
	var o offloadSet
	name := func(i int) string { return fmt.Sprintf("/c/offloaded/%d.md", i) }
	for i := range maxSessionOffloads + 10 {
		o.add(name(i), "/real"+name(i))
	}
	if len(o.order) != 2*maxSessionOffloads || len(o.has) != 2*maxSessionOffloads {
		t.Fatalf("kept %d entries, %d names; want %d", len(o.order), len(o.has), 2*maxSessionOffloads)
	}
	for _, tt := range []struct {
		path string
		want bool
	}{{name(0), false}, {"/real" + name(9), false}, {name(10), true}, {"/real" + name(10), true}, {name(maxSessionOffloads + 9), true}} {
		if got := o.has[tt.path] > 0; got != tt.want {
			t.Errorf("%s kept = %v, want %v", tt.path, got, tt.want)
		}
	}
}
