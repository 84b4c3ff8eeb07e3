package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOptionWordsAreFiles checks that a word starting with "-" is decided
// as the file it may be as well as an option: getopt stops at the first
// operand under POSIXLY_CORRECT (set by the request's env or an
// assignment), so "cat /dev/null -x" reads the file "-x", and a program
// may not know an option the table does. A word that names nothing a rule
// restricts changes nothing.
func TestOptionWordsAreFiles(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt"})
	out := t.TempDir()
	for _, l := range [][2]string{{"-x", ".env"}, {"--foo", ".env"}, {"-w", filepath.Join(out, "planted")}, {"-o=v", ".env"}} {
		if err := os.Symlink(l[1], filepath.Join(root, l[0])); err != nil {
			t.Fatal(err)
		}
	}
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash(cat:*)\n    - Bash(grep:*)\n    - Bash(tee:*)\n    - Bash(ls:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []struct {
		name, line string
		env        []EnvVar
		want       Value
	}{
		{"short option after an operand", "POSIXLY_CORRECT=1 cat /dev/null -x", nil, Deny},
		{"short option, env from the request", "cat /dev/null -x", []EnvVar{{Name: "POSIXLY_CORRECT", Value: "1"}}, Deny},
		{"long option after an operand", "cat a.txt --foo", nil, Deny},
		{"option with a value, whole word", "cat a.txt -o=v", nil, Deny},
		{"grep operand", "grep -h KEY a.txt -x", nil, Deny},
		{"tee through a dangling link outside", "echo x | tee a.txt -w", nil, Deny},
		{"options naming nothing", "ls -la sub", nil, Allow},
		{"long options naming nothing", "grep --color=never -n KEY a.txt", nil, Allow},
		{"plain read", "cat a.txt", nil, Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.line, Env: tt.env, Cwd: root})
			if d.Value != tt.want {
				t.Errorf("Decide(%q) = %v (%s); want %v", tt.line, d.Value, d.Reason, tt.want)
			}
		})
	}
}
