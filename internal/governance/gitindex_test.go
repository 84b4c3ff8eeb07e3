package governance

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitRun runs git in dir with a fixed identity, failing the test on an
// error.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestReadGitIndex checks that readGitIndex reads the paths of an index
// of each format git writes (2; 3, with an intent-to-add entry's extended
// flags; 4, prefix-compressed) as git ls-files lists them.
func TestReadGitIndex(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			dir := t.TempDir()
			tree{files: []string{"a.txt", "web/a.txt", "web/sub/b.txt", "web/sub/bb.txt", "web/zz/long-name-" + strings.Repeat("x", 40) + ".txt", "z"}}.make(t, dir)
			gitRun(t, dir, "init", "-q")
			gitRun(t, dir, "add", "a.txt", "web", "z")
			if version == "3" {
				writeFile(t, filepath.Join(dir, "new.txt"), "n")
				gitRun(t, dir, "add", "-N", "new.txt")
			}
			gitRun(t, dir, "update-index", "--index-version", version)
			want := strings.Fields(gitRun(t, dir, "ls-files"))
			got, ok := readGitIndex(filepath.Join(dir, ".git", "index"))
			slices.Sort(got)
			slices.Sort(want)
			if !ok || !slices.Equal(got, want) {
				t.Errorf("readGitIndex = %q, %v; want %q", got, ok, want)
			}
		})
	}
}

// TestDecideTrackedOnly checks that git's checkout, restore, rm and stash
// of a directory are decided by the files its index holds there: an
// ignored .env beneath is left alone (and the command allowed), a tracked
// one is not.
func TestDecideTrackedOnly(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "ws")
	tree{files: []string{"web/a.txt", "web/.env", "cfg/a.txt", "cfg/.env"}, texts: map[string]string{".gitignore": "web/.env\n"}}.make(t, root)
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", "-f", ".gitignore", "web/a.txt", "cfg/a.txt", "cfg/.env")
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  deny:\n    - Edit(**/.env)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLineDecisions(t, e, root, []lineDecision{
		{"git checkout of a directory holding an ignored .env", "git checkout -- web", Allow, ""},
		{"git restore of it", "git restore web", Allow, ""},
		{"git rm -r of it", "git rm -r web", Allow, ""},
		{"git stash of it", "git stash push -- web", Allow, ""},
		{"git checkout of a directory holding a tracked .env", "git checkout -- cfg", Deny, "cfg/.env"},
		{"git rm -r of it", "git rm -r cfg", Deny, "cfg/.env"},
		{"git checkout from a commit reads no index", "git checkout HEAD -- web", Deny, "web/.env"},
		{"git restore --source reads no index", "git restore --source=HEAD web", Deny, "web/.env"},
		{"a line whose other commands may change the index", "git add -f web/.env && git checkout -- web", Deny, "web/.env"},
		{"rm -r of the ignored one", "rm -rf web", Deny, "web/.env"},
		{"git clean -x of it", "git clean -fdx web", Deny, "web/.env"},
	})
}
