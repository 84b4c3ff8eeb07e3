package governance

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGitBareRepositoryAsked decides git commands that work in or below
// a directory git takes for a bare repository (HEAD, objects/, refs/):
// its config file, which the agent may write, holds aliases git runs, so
// under Bash(git:*) "git -C r st" ran r/config's "st = !cat .env". Such a
// command needs approval; one that finds a .git first, or no repository
// in the workspace, is decided as before.
func TestGitBareRepositoryAsked(t *testing.T) {
	root := t.TempDir()
	tree{
		dirs:  []string{"r/objects", "r/refs", "plain/sub", "repo/.git", "repo/r/objects", "repo/r/refs"},
		texts: map[string]string{"r/HEAD": "ref: refs/heads/main\n", "r/config": "[alias]\n\tst = !cat .env\n", "repo/r/HEAD": "ref: refs/heads/main\n", "notbare/HEAD": "x"},
	}.make(t, root)
	e := NewEngine(testPolicy(t, "  default: ask\n  allow: [Read, Bash(git:*)]\n"), EngineOptions{Roots: []string{root}})
	for _, c := range []struct {
		line, cwd string
		want      Value
	}{
		{"git -C r st", "", RequireApproval},
		{"git st", "r", RequireApproval},
		{"git log", "r/objects", RequireApproval},
		{"git -C r/refs log", "", RequireApproval},
		{"git --work-tree=. -C r st", "", RequireApproval},
		{"git -C repo/r log", "", RequireApproval},
		{"git status", "", Allow},
		{"git -C plain/sub status", "", Allow},
		{"git -C notbare status", "", Allow},
		{"git -C repo status", "", Allow},
	} {
		cwd := filepath.Join(root, c.cwd)
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: c.line, Cwd: cwd, Paths: []string{cwd}})
		if d.Value != c.want || c.want == RequireApproval && !strings.Contains(d.Reason, "bare repository") {
			t.Errorf("%q in %s: %v (%s); want %v", c.line, c.cwd, d.Value, d.Reason, c.want)
		}
	}
}
