package governance

import (
	"encoding/binary"
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

// TestReadGitIndexSplit checks that a split index, most of whose entries
// git keeps in a shared index beside it, is not read as the whole list.
func TestReadGitIndexSplit(t *testing.T) {
	dir := t.TempDir()
	tree{files: []string{"a/x", "b/y"}}.make(t, dir)
	gitRun(t, dir, "init", "-q")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-qm", "x")
	gitRun(t, dir, "update-index", "--split-index")
	if got, ok := readGitIndex(filepath.Join(dir, ".git", "index")); ok {
		t.Errorf("readGitIndex of a split index = %q, ok; want not read", got)
	}
}

// TestDecideGitRepoFound checks that the index is the one git finds from
// the real path (a symlink into a nested repository leads to that
// repository's index), that a linked work tree's configuration is its
// common directory's (not a reason to count every file), and that a
// repository whose configuration moves its work tree elsewhere
// (core.worktree) has its git commands of pathspecs refused.
func TestDecideGitRepoFound(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "ws")
	tree{files: []string{"nested/x/.env", "nested/x/a.txt", "web/a.txt", "web/.env", "keys/a.key"},
		texts: map[string]string{".gitignore": "web/.env\nnested/\n"}}.make(t, root)
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", ".gitignore", "web/a.txt", "keys/a.key")
	gitRun(t, root, "commit", "-qm", "x")
	gitRun(t, filepath.Join(root, "nested"), "init", "-q")
	gitRun(t, filepath.Join(root, "nested"), "add", "-f", "x/.env", "x/a.txt")
	if err := os.Symlink("nested/x", filepath.Join(root, "L")); err != nil {
		t.Fatal(err)
	}
	gitRun(t, root, "worktree", "add", "-q", "wt")
	writeFile(t, filepath.Join(root, "wt", "web", ".env"), "x")
	gitRun(t, root, "init", "-q", "--separate-git-dir="+filepath.Join(root, "gd"), "sub")
	f, err := os.OpenFile(filepath.Join(root, "gd", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[core]\n\tworktree = " + filepath.Join(root, "keys") + "\n")
	f.Close()
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  deny:\n    - Edit(**/.env)\n    - Edit(./keys/*.key)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLineDecisions(t, e, root, []lineDecision{
		{"a link into the nested repository", "git -C L checkout -- .", Deny, ".env"},
		{"a repository that moves its work tree", "git -C sub checkout -- .", Deny, "core.worktree"},
	})
	// Run in the linked work tree itself: a "cd" first would be another
	// command of the line, which may change the index.
	if d := e.Decide(Request{Action: ActionTerminalCreate, Command: "git checkout -- web", Cwd: filepath.Join(root, "wt")}); d.Value != Allow {
		t.Errorf("git checkout of an ignored .env's directory in a linked work tree = %v (%s); want allow", d.Value, d.Reason)
	}
}

// TestDecideTrackedOnly checks that git's checkout, restore, rm and stash
// of a directory are decided by the files its index holds there (the
// index of the repository git finds from where it runs, not one made
// inside): an ignored .env beneath is left alone (and the command
// allowed), a tracked one is not, nor when another index may be read.
// Its rows are in testdata/cases/tracked_only_lines.txt.
func TestDecideTrackedOnly(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "ws")
	tree{files: []string{"web/a.txt", "web/.env", "cfg/a.txt", "cfg/.env"}, texts: map[string]string{".gitignore": "web/.env\n"}}.make(t, root)
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", "-f", ".gitignore", "web/a.txt", "cfg/a.txt", "cfg/.env")
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  deny:\n    - Edit(**/.env)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	// A repository the agent makes inside: git, run from the top, still
	// reads the top's index, which tracks cfg/.env.
	gitRun(t, filepath.Join(root, "cfg"), "init", "-q")
	checkLineDecisions(t, e, root, lineDecisionCases(t, "tracked_only_lines.txt", nil))
}

// indexEntry is one index entry: the fixed part with flags (the name's
// length for a well-formed one), then rest (the name and its padding, or
// format 4's prefix length and name).
func indexEntry(flags uint16, rest string) []byte {
	b := make([]byte, 60, 62+len(rest))
	b = binary.BigEndian.AppendUint16(b, flags)
	return append(b, rest...)
}

// indexBytes returns an index of format version that says it holds count
// entries, followed by entries.
func indexBytes(version, count uint32, entries ...[]byte) []byte {
	b := []byte("DIRC")
	b = binary.BigEndian.AppendUint32(b, version)
	b = binary.BigEndian.AppendUint32(b, count)
	for _, e := range entries {
		b = append(b, e...)
	}
	return b
}

// TestReadGitIndexRefuses checks that an index the bridge cannot read as
// git wrote it is not read (the caller then counts every file): a
// format-4 prefix length past 64 bits, a count of entries the file cannot
// hold, a name whose length the flags do not give (as a SHA-256
// repository's index reads), names that grow past maxIndexNameBytes
// together, a split or sparse index, and none at all; a well-formed one
// is read.
func TestReadGitIndexRefuses(t *testing.T) {
	dir := t.TempDir()
	var growing [][]byte
	for i := 1; i <= 20; i++ {
		growing = append(growing, indexEntry(uint16(i), "\x00a\x00")) // strip nothing, add "a"
	}
	defer func(n int) { maxIndexNameBytes = n }(maxIndexNameBytes)
	maxIndexNameBytes = 100 // 1+2+...+20 = 210 bytes of names
	for _, tt := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"varint overflow", indexBytes(4, 1, indexEntry(1, "\xff\xff\xff\xff\xff\xff\xff\xff\x7fa\x00")), false},
		{"count past the file", indexBytes(2, 1<<30), false},
		{"name length not the flags'", indexBytes(2, 1, indexEntry(7, "abc\x00\x00\x00\x00\x00\x00\x00")), false},
		{"names growing past the bound", indexBytes(4, uint32(len(growing)), growing...), false},
		{"not an index", []byte("DIRX00000000"), false},
		{"well formed", indexBytes(2, 1, indexEntry(3, "abc\x00\x00\x00\x00\x00\x00\x00")), true},
		{"split index", append(indexBytes(2, 1, indexEntry(3, "abc\x00\x00\x00\x00\x00\x00\x00"), []byte("link\x00\x00\x00\x00")), make([]byte, 20)...), false},
		{"sparse index", append(indexBytes(2, 1, indexEntry(3, "abc\x00\x00\x00\x00\x00\x00\x00"), []byte("sdir\x00\x00\x00\x00")), make([]byte, 20)...), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
			if err := os.WriteFile(p, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			if got, ok := readGitIndex(p); ok != tt.ok {
				t.Errorf("readGitIndex = %q, %v; want %v", got, ok, tt.ok)
			}
		})
	}
	if _, ok := readGitIndex(filepath.Join(dir, "missing")); ok {
		t.Error("a missing index read as ok; want every file counted")
	}
}

// FuzzReadGitIndex checks that reading any file as a git index never
// panics.
func FuzzReadGitIndex(f *testing.F) {
	f.Add(indexBytes(2, 1, indexEntry(3, "abc\x00\x00\x00\x00\x00\x00\x00")))
	f.Add(indexBytes(4, 2, indexEntry(1, "\x00a\x00"), indexEntry(2, "\x00b\x00")))
	f.Add(indexBytes(3, 1, indexEntry(0x4003, "\x00\x00abc\x00")))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "index")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		readGitIndex(p)
	})
}
