package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNamesACommandMayCreate checks that a name leading to nothing in a
// directory that exists (a dangling link included) is decided as a write:
// the command may create it (sort -o, touch, --output=), and which
// commands do is not in the line. Outside the workspace that is denied
// whoever approves; a name that exists is still decided as a read.
func TestNamesACommandMayCreate(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt"})
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "there.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(out, "new.txt"), filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n    - Edit(./sub/**)\n  allow:\n    - Read\n    - Edit(./**)\n"+
		"    - Bash(sort:*)\n    - Bash(touch:*)\n    - Bash(cat:*)\n    - Bash(grep:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []namedLineCase{
		{"sort -o outside", "sort -o " + out + "/new.txt a.txt", Deny},
		{"long output option outside", "sort --output=" + out + "/new.txt a.txt", Deny},
		{"touch outside", "touch " + out + "/new.txt", Deny},
		{"relative path outside", "touch ../" + filepath.Base(out) + "/new.txt", Deny},
		{"dangling link out", "sort -o dangling a.txt", Deny},
		{"a denied write inside", "touch sub/new.txt", Deny},
		{"a new file inside", "sort -o sorted.txt a.txt", Allow},
		{"existing file outside is asked", "cat " + out + "/there.txt", RequireApproval},
		{"parent missing", "sort /no/such/dir/file", Allow},
		{"a reader creates nothing", "cat " + out + "/new.txt", Allow},
		{"a reader's dangling link", "grep x dangling", RequireApproval},
		{"reading a file inside", "cat a.txt", Allow},
	}
	checkNamedLines(t, e, root, tests)
}
