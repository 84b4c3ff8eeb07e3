package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDecideGitHistoryReads checks that a git command printing tracked
// files from git's objects without naming them (git show, git log -p, git
// grep of a revision, git archive, git format-patch, git fast-export, a
// clone or work tree of the repository, a patch or verbose option of
// add, checkout, reset, restore, stash, commit and status, an alias or a
// subcommand the bridge does not know) is decided as reading every file
// the index holds: a tracked .env or secret refuses it, while the same
// commands in a repository whose .env is untracked and ignored run. Its
// rows are in testdata/cases/git_history_lines.txt.
func TestDecideGitHistoryReads(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "ws")
	tree{files: []string{"README.md", "src/a.go", ".env", "sub/.env", "secrets/key.txt", "clean/a.txt", "clean/.env"},
		texts: map[string]string{"clean/.gitignore": ".env\n"}}.make(t, root)
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", "README.md", "src", ".env", "sub", "secrets")
	gitRun(t, root, "commit", "-qm", "x")
	gitRun(t, root, "config", "alias.lp", "log -p") // the person's alias
	gitRun(t, filepath.Join(root, "clean"), "init", "-q")
	gitRun(t, filepath.Join(root, "clean"), "add", "a.txt", ".gitignore")
	gitRun(t, filepath.Join(root, "clean"), "commit", "-qm", "x")
	// A repository whose index the bridge cannot read (a split index).
	tree{files: []string{"split/a.txt"}}.make(t, root)
	gitRun(t, filepath.Join(root, "split"), "init", "-q")
	gitRun(t, filepath.Join(root, "split"), "add", "a.txt")
	gitRun(t, filepath.Join(root, "split"), "update-index", "--split-index")
	if _, err := os.Stat(filepath.Join(root, "split", ".git", "index")); err != nil {
		t.Fatal(err)
	}
	tree{files: []string{"fresh/a.txt"}}.make(t, root)
	gitRun(t, filepath.Join(root, "fresh"), "init", "-q")
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(**/.env)\n    - Read(./secrets/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLineDecisions(t, e, root, lineDecisionCases(t, "git_history_lines.txt", nil))
}
