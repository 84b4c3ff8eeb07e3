package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestNamesFromFile checks that a command whose files are named inside
// another file or another command's output is asked about, never allowed
// by a rule that allows the command: the bridge cannot see those names
// (list holds ".env", which the policy denies reading). A protected name
// the line shows is still denied.
func TestNamesFromFile(t *testing.T) {
	checkListLines(t, "names_from_file_lines.txt", "cat", "wc", "sort", "du", "tar", "rsync", "xargs", "find", "parallel", "zip", "cpio", "ls", "git",
		"zstd", "unzstd", "zstdcat", "xz", "unxz", "xzcat", "lzma")
}

// checkListLines decides the lines of testdata/cases/file ($ROOT the
// workspace root) in a workspace holding .env, a.txt, sub/b.txt and list
// (which holds ".env"), under a policy that asks by default, denies
// reading .env and allows Read and Bash(program:*) for each program.
func checkListLines(t *testing.T, file string, programs ...string) {
	t.Helper()
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt", "sub/b.txt"})
	if err := os.WriteFile(filepath.Join(root, "list"), []byte(".env\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rules := "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n"
	for _, p := range programs {
		rules += "    - Bash(" + p + ":*)\n"
	}
	e := NewEngine(testPolicy(t, rules), EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, file, map[string]string{"$ROOT": root}))
}

// FuzzNamesFromFile: whatever the words, namesFromFile does not panic,
// and a form naming a list by one of namesListOptions (alone or with
// =value), before any "--", is always caught.
func FuzzNamesFromFile(f *testing.F) {
	for _, s := range []string{"tar\x00-cT\x00list", "wc\x00--files0-from=x", "parallel\x00cat\x00::::\x00l", "zip\x00-r@\x00o", "cpio\x00-ov", "7z\x00a\x00@l", "x\x00--\x00--files-from"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var form []shellcmd.Word
		for _, w := range strings.Split(s, "\x00") {
			form = append(form, shellcmd.Word{Kind: shellcmd.Static, Text: w})
		}
		got := namesFromFile(form)
		if len(form) < 2 {
			return
		}
		for _, w := range form[1:] {
			if w.Text == "--" {
				break
			}
			if opt, _, _ := strings.Cut(w.Text, "="); namesListOptions[opt] && got == "" {
				t.Fatalf("namesFromFile(%q) missed %q", s, w.Text)
			}
		}
	})
}
