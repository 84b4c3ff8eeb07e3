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
// spelled (absolute, escaped), -B, -C and --orphan, a start point.
func TestGitLinkWriteVerdictIndex(t *testing.T) {
	e, root, blob := gitIndexWorkspace(t)
	tests := []struct {
		line string
		want bool
	}{
		{"git checkout -b feat && echo x >> README", false},
		{"git switch -c topic && touch notes.md", false},
		{"git restore src/a.js && sed -i 's/a/b/' src/a.js", true},
		{"git checkout -B feat && echo x >> README", true},
		{"git checkout --orphan o && echo x >> README", true},
		{"git switch -C topic && touch notes.md", true},
		{"git checkout -- src/a.js && echo x > src/a.js", true},
		{"git status && git restore src && echo x > src/a.js", true},

		{"git restore l && echo x > l", true},
		{"git restore links2 && echo x > links2/m", true},
		{"git checkout -- . && echo x > src/a.js", true},
		{"git restore '*.js' && sed -i s/a/b/ src/a.js", true},
		{"git restore :/src && sed -i s/a/b/ src/a.js", true},
		{"git restore $P && sed -i s/a/b/ src/a.js", true},
		{"git restore --source=HEAD src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git restore -s HEAD src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git restore --staged --worktree src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git checkout HEAD -- src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git checkout src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git checkout --pathspec-from-file=p -- && sed -i s/a/b/ src/a.js", true},
		{"git update-index --add --cacheinfo 120000," + blob + ",src/a.js && git restore src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git add src && git restore src/a.js && sed -i s/a/b/ src/a.js", true},
		{"GIT_INDEX_FILE=/tmp/i git restore src/a.js && sed -i s/a/b/ src/a.js", true},
		{"export GIT_INDEX_FILE=/tmp/i; git restore src/a.js && sed -i s/a/b/ src/a.js", true},
		{"cp /tmp/i .git/index && git restore src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git restore src/a.js && sed -i s/a/b/ src/a.js > .git/index", true},
		{"./prep.sh && git restore src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git -C /elsewhere restore src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git --git-dir=/elsewhere restore src/a.js && sed -i s/a/b/ src/a.js", true},
		{"git checkout -b feat main && echo x >> README", true},
		{"git checkout -f -b feat && echo x >> README", true},
		{"git checkout -m -b feat && echo x >> README", true},
		{"git switch -c topic origin/main && touch notes.md", true},
		{"git switch --discard-changes -c topic && touch notes.md", true},
		{"git checkout -b feat $B && echo x >> README", true},
		{"git restore '\\l' && echo x > l", true},
		{"git restore " + root + "/l && echo x > l", true},
		{"git checkout -- " + root + "/l && echo x > l", true},
		{"git restore --recurse-submodules src/a.js && echo x > l", true},
	}
	for _, tt := range tests {
		checkGitLinkAsks(t, e, root, tt.line, tt.want)
	}
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
