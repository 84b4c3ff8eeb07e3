package governance

import (
	"path/filepath"
	"strings"
	"testing"
)

// gitIndexWorkspace is treeWriteWorkspace made a repository whose index
// tracks src/a.js and README as files and l and links2/m as symlinks
// (mode 120000, their targets blobs no line holds); it returns the
// engine, the workspace's top and a blob's name.
func gitIndexWorkspace(t *testing.T) (*Engine, string, string) {
	t.Helper()
	e, root, _ := treeWriteWorkspace(t)
	gitRun(t, root, "init", "-q")
	writeFile(t, filepath.Join(root, "src/a.js"), "a")
	writeFile(t, filepath.Join(root, "README"), "r")
	gitRun(t, root, "add", "src/a.js", "README")
	writeFile(t, filepath.Join(root, "f"), "keys/a.key")
	blob := strings.TrimSpace(gitRun(t, root, "hash-object", "-w", "f"))
	gitRun(t, root, "update-index", "--add", "--cacheinfo", "120000,"+blob+",l")
	gitRun(t, root, "update-index", "--add", "--cacheinfo", "120000,"+blob+",links2/m")
	return e, root, blob
}

// TestGitLinkWriteVerdictIndex checks the lines the rule for links git
// puts in the work tree leaves alone because git puts no new entry there
// (a branch made at HEAD with -b or -c), and those it asks about: every
// checkout or restore from the index, whatever it holds now (a terminal
// the IDE has not run may change it first), however its pathspec is
// spelled (absolute, escaped), -B, -C and --orphan, a start point. Its
// rows are in testdata/cases/git_link_asks_index_lines.txt.
func TestGitLinkWriteVerdictIndex(t *testing.T) {
	e, root, blob := gitIndexWorkspace(t)
	checkGitLinkAsksLines(t, e, root, "git_link_asks_index_lines.txt", map[string]string{"{{ROOT}}": root, "{{BLOB}}": blob})
}

// TestDecideGitIndexLines decides whole lines in the repository of
// gitIndexWorkspace: a branch made at HEAD, then a write, is allowed; a
// restore, of a path the index holds as a file or as a symlink, then a
// write, needs approval.
func TestDecideGitIndexLines(t *testing.T) {
	e, root, _ := gitIndexWorkspace(t)
	checkLineDecisions(t, e, root, []lineDecision{
		{"checkout -b, then an append", "git checkout -b feat && echo x >> README", Allow, ""},
		{"switch -c, then touch", "git switch -c topic && touch notes.md", Allow, ""},
		{"restore of a file, then sed -i", "git restore src/a.js && sed -i 's/a/b/' src/a.js", RequireApproval, "git restore may put symlinks"},
		{"restore of a symlink entry, then a write", "git restore l && echo x > l", RequireApproval, "git restore may put symlinks"},
	})
}
