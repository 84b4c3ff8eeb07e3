package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOutputOptionsWritten: the file or directory an option names for a
// program to write into is decided as a write however the option is
// spelled: mv, cp, ln and install's -t/--target-directory (the operands
// are moved, copied or linked into it), and a long option abbreviated as
// getopt_long takes it ("sort --out=F" is "sort --output=F"). One outside
// the workspace is denied, as "cp a.txt OUT/" is, not asked.
func TestOutputOptionsWritten(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{"a.txt"})
	out := t.TempDir()
	ref, v := filepath.Join(out, "ref.txt"), filepath.Join(out, "victim.txt")
	for _, f := range []string{ref, v} {
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := testPolicy(t, "  default: allow\n  allow:\n    - Read\n    - Edit(./**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []namedLineCase{
		{"mv -t outside", "mv -t " + out + " a.txt", Deny},
		{"mv -t in the word", "mv -t" + out + " a.txt", Deny},
		{"mv -t in a cluster", "mv -ft " + out + " a.txt", Deny},
		{"mv --target-directory=", "mv --target-directory=" + out + " a.txt", Deny},
		{"mv --target-directory value", "mv --target-directory " + out + " a.txt", Deny},
		{"mv --target= abbreviated", "mv --target=" + out + " a.txt", Deny},
		{"mv --ta abbreviated, value", "mv --ta " + out + " a.txt", Deny},
		{"cp -t outside", "cp -t " + out + " a.txt", Deny},
		{"cp --target-directory=", "cp -r --target-directory=" + out + " sub", Deny},
		{"ln -t outside", "ln -s -t " + out + " a.txt", Deny},
		{"install -t outside", "install -m 755 -t " + out + " a.txt", Deny},
		{"sort --out= abbreviated", "sort --out=" + v + " a.txt", Deny},
		{"sort --outp abbreviated, value", "sort --outp " + v + " a.txt", Deny},
		{"mv -t inside", "mv -t sub a.txt", Allow},
		{"cp -t inside", "cp -t sub a.txt", Allow},
		{"install -o owner is no output", "install -o root -m 644 a.txt sub/", Allow},
		{"sort --out= inside", "sort --out=sub/s.txt a.txt", Allow},
		{"cp from outside is asked, not denied", "cp " + ref + " sub/", RequireApproval},
	}
	checkNamedLines(t, e, root, tests)
}
