package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNamesFromFileAbbreviated: a list option is caught however much of
// its name the line gives, since getopt_long and git take any prefix that
// names one option of the program ("sort --files0=list" prints the files
// the list names); an exact option the list options begin with (--file)
// is not one. 7z reads a list after '@' in its -i and -ai switches too
// ("-ir0@list", "-ai@list").
func TestNamesFromFileAbbreviated(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt", "sub/b.txt"})
	if err := os.WriteFile(filepath.Join(root, "list"), []byte(".env\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n"+
		"    - Bash(wc:*)\n    - Bash(sort:*)\n    - Bash(tar:*)\n    - Bash(xargs:*)\n    - Bash(git:*)\n    - Bash(grep:*)\n    - Bash(7z:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "names_abbrev_lines.txt", map[string]string{"$ROOT": root}))
}
