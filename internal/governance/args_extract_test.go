package governance

import (
	"path/filepath"
	"testing"
)

// TestExtractInto: the directory an archive is extracted into is decided
// as a write: outside the workspace denied, whoever approves; inside
// allowed; a tar that creates an archive only reads its -C directory.
func TestExtractInto(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{"a.tar", "a.zip", "a.txt"})
	emptyArchives(t, root) // real archives: the names extracted are decided
	out := t.TempDir()
	p := testPolicy(t, "  default: allow\n  allow:\n    - Read\n    - Edit(./**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []namedLineCase{
		{"tar -C before -xf", "tar -C " + out + " -xf a.tar", Deny},
		{"tar -xf then -C", "tar -xf a.tar -C " + out, Deny},
		{"tar old style", "tar xf a.tar -C " + out, Deny},
		{"tar old style with C", "tar xfC a.tar " + out, Deny},
		{"tar -C in the word", "tar -xf a.tar -C" + out, Deny},
		{"tar --directory=", "tar --extract --file=a.tar --directory=" + out, Deny},
		{"tar --dir abbreviated", "tar --get -f a.tar --dir " + out, Deny},
		{"tar cluster", "tar -xzvC " + out + " -f a.tar", Deny},
		{"unzip -d", "unzip a.zip -d " + out, Deny},
		{"unzip -d in the word", "unzip a.zip -d" + out, Deny},
		{"tar into a directory inside", "tar -C sub -xf a.tar", Allow},
		{"unzip inside", "unzip -d sub a.zip", Allow},
		{"tar creating an archive reads -C", "tar -C " + filepath.Dir(out) + " -cf a2.tar " + filepath.Base(out), RequireApproval},
	}
	checkNamedLines(t, e, root, tests)
}
