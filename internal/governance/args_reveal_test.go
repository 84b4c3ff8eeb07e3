package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProgramsThatRevealContent: programs whose output shows a file's
// content, or answers a question about it, read the files they are given
// another way than by naming them: a checksum list (md5sum -c list, whose
// lines name .env) is a list of names the line does not show, asked about
// whatever rule allows the command; diff over directories reads the files
// of the same name beneath both (diff . OUT prints both .env files), so it
// is decided by a walk of each directory as grep -r is. Naming the file
// directly is denied as a read, as for any command.
func TestProgramsThatRevealContent(t *testing.T) {
	root := tempTree(t, []string{"sub", "clean"}, []string{".env", "a.txt", "sub/b.txt", "clean/c.txt"})
	out := t.TempDir()
	for _, f := range []string{".env", "a.txt"} {
		if err := os.WriteFile(filepath.Join(out, f), []byte("y\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "sums"), []byte("0123  .env\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var allow string
	for _, c := range []string{"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "shasum", "diff", "colordiff", "cmp", "comm", "git"} {
		allow += "    - Bash(" + c + ":*)\n"
	}
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n"+allow)
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "reveal_lines.txt", map[string]string{"$ROOT": root, "$OUT": out}))
}
