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
// in the workspace, is decided as before. Its rows are in
// testdata/cases/git_bare_lines.txt.
func TestGitBareRepositoryAsked(t *testing.T) {
	root := t.TempDir()
	tree{
		dirs:  []string{"r/objects", "r/refs", "plain/sub", "repo/.git", "repo/r/objects", "repo/r/refs"},
		texts: map[string]string{"r/HEAD": "ref: refs/heads/main\n", "r/config": "[alias]\n\tst = !cat .env\n", "repo/r/HEAD": "ref: refs/heads/main\n", "notbare/HEAD": "x"},
	}.make(t, root)
	e := NewEngine(testPolicy(t, "  default: ask\n  allow: [Read, Bash(git:*)]\n"), EngineOptions{Roots: []string{root}})
	for _, c := range caseRows(t, "git_bare_lines.txt", 3, nil) {
		line, dir, want := c.fields[0], c.fields[1], Value(c.fields[2])
		cwd := filepath.Join(root, dir)
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: cwd, Paths: []string{cwd}})
		if d.Value != want || want == RequireApproval && !strings.Contains(d.Reason, "bare repository") {
			t.Errorf("git_bare_lines.txt:%d: %q in %s: %v (%s); want %v", c.line, line, dir, d.Value, d.Reason, want)
		}
	}
}
