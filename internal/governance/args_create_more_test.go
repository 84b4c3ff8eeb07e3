package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNamesACommandMayCreateSpelled: a name a command may create outside
// the workspace is denied however the line spells it: as a short option's
// attached value ("sort -oFILE", after a cluster "-soFILE"), or as a glob
// that matches nothing, which the shell passes on as it is written. A file
// a rule denies reading is denied as an attached value too ("grep -f.env").
// less is no plain reader: its -o writes a log file.
func TestNamesACommandMayCreateSpelled(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt"})
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "there.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n  allow:\n    - Read\n    - Edit(./**)\n"+
		"    - Bash(sort:*)\n    - Bash(touch:*)\n    - Bash(cat:*)\n    - Bash(grep:*)\n    - Bash(less:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []namedLineCase{
		{"short option's attached value", "sort -o" + out + "/new.txt a.txt", Deny},
		{"glob matching nothing, touch", "touch " + out + "/new*.txt", Deny},
		{"glob matching nothing, sort -o", "sort -o " + out + "/new?.txt a.txt", Deny},
		{"after a cluster of options", "sort -so" + out + "/new.txt a.txt", Deny},
		{"a denied file read as an attached value", "grep -f.env a.txt", Deny},
		{"less writes its log file", "less -o " + out + "/new.txt a.txt", Deny},
		{"control: sort into the workspace", "sort -osorted.txt a.txt", Allow},
		{"control: a cluster of flags", "sort -rn a.txt", Allow},
	}
	checkNamedLines(t, e, root, tests)
}
