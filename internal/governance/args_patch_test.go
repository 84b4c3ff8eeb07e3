package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchedNames decides the files patch writes: the names its diff's
// headers give, read from -i's file, the command's input file or a
// here-document when the request is decided, below -d's directory after
// -p's count (any count without -p). "patch -p1 < evil.diff" whose diff
// adds .claude/settings.json writes Claude's settings, and was allowed
// under Bash(patch:*). A diff whose names cannot be read needs approval.
func TestPatchedNames(t *testing.T) {
	root := tempTree(t, []string{"sub", "src"}, []string{"a.txt", "src/main.go"})
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("evil.diff", "--- /dev/null\n+++ b/.claude/settings.json\n@@ -0,0 +1 @@\n+{}\n")
	write("policy.diff", "diff --git a/GOVERNANCE.md b/GOVERNANCE.md\n--- a/GOVERNANCE.md\n+++ b/GOVERNANCE.md\n@@ -1 +1 @@\n-x\n+y\n")
	write("link.diff", "diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+.claude\n")
	write("ed.diff", "1c\nx\n.\n")
	write("ok.diff", "--- a/src/main.go\t2026-01-01\n+++ b/src/main.go\t2026-01-01\n@@ -1 +1 @@\n-x\n+y\n")
	e := rootPolicyEngine(t, root, "  allow: [Bash(patch:*), Bash(cat:*), Bash(git:*)]\n")
	heredoc := "patch -p1 <<'EOF'\n" + strings.TrimSuffix("--- /dev/null\n+++ b/.envrc\n@@ -0,0 +1 @@\n+echo x\n", "\n") + "\nEOF"
	checkCommandRows(t, e, root, []commandRow{
		{"patch -p1 < evil.diff", Deny},
		{"patch -p1 -i evil.diff", Deny},
		{"patch --input=evil.diff --strip=1", Deny},
		{"patch < evil.diff", Deny},
		{"patch -p0 -i policy.diff", Allow}, // a/GOVERNANCE.md: no directory a, nothing found to patch
		{"patch -p1 -i policy.diff", Deny},
		{"patch -d sub -p1 -i evil.diff", Deny},
		{heredoc, Deny},
		{"patch -p1 -i link.diff", Deny},
		{"patch -i ed.diff", Deny},
		{"cat evil.diff | patch -p1", Deny},
		{"patch -p1 < ok.diff", Allow},
		{"patch -p1 -i missing.diff", Deny}, // made before it runs, its names unknown: the root holds the policy
		{"patch --dry-run -p1 < evil.diff", Allow},
		{"patch a.txt evil.diff", Allow}, // patches a.txt alone
		{"git apply evil.diff", Deny},
		{"git apply < evil.diff", Deny},
		{"git -C src apply -p1 " + root + "/evil.diff", Deny}, // relative to the top of the work tree
		{"git apply --directory=sub evil.diff", Deny},
		{"git am evil.diff", Deny},
		{"git apply --check evil.diff", Allow},
		{"git apply --cached evil.diff", Allow},
		{"git apply ok.diff", Allow},
		{"cat evil.diff | git apply", Deny},
	})
}

// FuzzDiffNames reads diff text: no panic, and names or a reason, not both.
func FuzzDiffNames(f *testing.F) {
	for _, s := range []string{"--- a/x\n+++ b/x\n", "diff --git a/l b/l\nnew file mode 120000\n", "+++ \"b/\\x41\"\n", "*** x\t1\n--- y\n", "rename to z\n", "1c\n.\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		names, why := diffNames(strings.NewReader(text))
		if (why == "") == (names == nil) {
			t.Fatalf("%q: names %q, reason %q", text, names, why)
		}
	})
}
