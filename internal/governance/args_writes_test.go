package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOperandsWritten: a program the table knows changes the files its
// operands name (chmod, truncate, sed -i, mkdir, touch, rm, mv, ...) has
// each of them decided as a write, so one outside the workspace is denied
// as a write tool's would be, whoever approves the command, and one a rule
// refuses editing is refused; the words that are not files (chmod's mode,
// sed's script, an option's value) are not written.
func TestOperandsWritten(t *testing.T) {
	root := tempTree(t, []string{"sub", "drafts"}, []string{".env", "a.txt", "drafts/d.txt"})
	out := t.TempDir()
	for _, f := range []string{"victim.txt", "ref.txt"} {
		if err := os.WriteFile(filepath.Join(out, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := filepath.Join(out, "victim.txt")
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n  ask:\n    - Edit(./drafts/**)\n  allow:\n    - Read\n    - Edit(./**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []namedLineCase{
		{"sed -i outside", "sed -i s/x/y/ " + v, Deny},
		{"sed -i in a cluster", "sed -ni.bak s/x/y/p " + v, Deny},
		{"sed --in-place", "sed --in-place=.bak -e s/x/y/ " + v, Deny},
		{"sed --in abbreviated", "sed --in -e s/x/y/ " + v, Deny},
		{"sed -i with -e, every operand a file", "sed -i -e s/x/y/ a.txt " + v, Deny},
		{"sed -i script that looks like a path", "sed -i /x/d a.txt", Allow},
		{"sed -i -f script read", "sed -i -f " + v + " a.txt", RequireApproval},
		{"sed without -i writes nothing", "sed s/x/y/ a.txt", Allow},
		{"chmod outside", "chmod 777 " + v, Deny},
		{"chmod mode like an option", "chmod -w " + v, Deny},
		{"chmod --reference", "chmod --reference=a.txt " + v, Deny},
		{"chown outside", "chown u:g " + v, Deny},
		{"chgrp outside", "chgrp -R g " + out, Deny},
		{"truncate outside", "truncate -s0 " + v, Deny},
		{"truncate -s value", "truncate -s 0 " + v, Deny},
		{"truncate -r reads", "truncate -r " + filepath.Join(out, "ref.txt") + " a.txt", RequireApproval},
		{"mkdir -p outside", "mkdir -p " + filepath.Join(out, "a", "b"), Deny},
		{"mkdir -m value", "mkdir -m 700 " + filepath.Join(out, "c"), Deny},
		{"touch existing outside", "touch " + v, Deny},
		{"touch -d value", "touch -d yesterday a.txt", Allow},
		{"rm outside", "rm -f " + v, Deny},
		{"rmdir outside", "rmdir " + out, Deny},
		{"mv source outside", "mv " + v + " sub/", Deny},
		{"shred outside", "shred -n 3 " + v, Deny},
		{"unlink outside", "unlink " + v, Deny},
		{"setfacl outside", "setfacl -m u:x:rw " + v, Deny},
		{"chattr outside", "chattr +i " + v, Deny},
		{"sort -o existing outside", "sort -o " + v + " a.txt", Deny},
		{"sort -o in the word", "sort -o" + v + " a.txt", Deny},
		{"sort --output= existing outside", "sort --output=" + v + " a.txt", Deny},
		{"sed --expr abbreviated, the operand a file", "sed -i --expr=s/x/y/ " + v, Deny},
		{"uniq output outside", "uniq a.txt " + v, Deny},
		{"through a wrapper", "nice -n 5 chmod 600 " + v, Deny},
		{"a glob outside", "chmod 600 " + out + "/*.txt", Deny},
		{"chmod of a secret", "chmod 644 .env", Deny},
		{"touch a draft asks", "touch drafts/d.txt", RequireApproval},
		{"chmod inside", "chmod 755 a.txt sub", Allow},
		{"mkdir -p inside", "mkdir -p sub/x/y", Allow},
		{"mv inside", "mv a.txt sub/", Allow},
		{"cat outside is asked, not denied", "cat " + v, RequireApproval},
	}
	checkNamedLines(t, e, root, tests)
}
