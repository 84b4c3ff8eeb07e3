package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtectedNamedOrLinked: a command naming a file in a protected
// agent directory is refused as naming it, and one reaching it through a
// link as reaching it through that link; the reason says which.
func TestProtectedNamedOrLinked(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	if err := os.MkdirAll(filepath.Join(root, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".gemini", "styleguide.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".gemini", filepath.Join(root, "guides")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want, not string }{
		{"cat .gemini/styleguide.md", "it names Gemini CLI's project directory", "is a link"},
		{"ls .codex", "it names Codex's project directory", "is a link"},
		{"cat guides/styleguide.md", "guides/styleguide.md is a link to Gemini CLI's project directory", "it names"},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: tc.line, Cwd: root})
		if d.Value != Deny || !strings.Contains(d.Reason, tc.want) || strings.Contains(d.Reason, tc.not) {
			t.Errorf("%s: %v (%s); want deny saying %q", tc.line, d.Value, d.Reason, tc.want)
		}
	}
}
