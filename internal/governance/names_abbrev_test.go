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
	tests := []lineCase{
		{"wc --files0=list", RequireApproval},
		{"wc --f=list", RequireApproval},
		{"sort --files0 list", RequireApproval},
		{"tar -c --files-f=list -f -", RequireApproval},
		{"xargs --arg=list cat", RequireApproval},
		{"git add --pathspec-from=list", RequireApproval},
		{"7z a out.7z -ir@list", RequireApproval},
		{"7z a out.7z -ir0@list", RequireApproval},
		{"7z x -ai@list", RequireApproval},
		{"7z a out.7z sub", Allow},
		{"tar -c --file=- sub", Allow},
		{"grep --fixed-strings x a.txt", Allow},
		{"wc --lines a.txt", Allow},
	}
	checkLines(t, e, root, tests)
}
