package shellcmd

import (
	"os/exec"
	"slices"
	"testing"
)

// TestNulReadings: a command holding a word whose $'...' string makes a
// NUL byte is read as bash reads it and as zsh does: each program's
// arguments as the shell gives them (judged by the shells themselves,
// printing each argument of an external printf) are among the forms.
func TestNulReadings(t *testing.T) {
	for _, word := range []string{`r$'\0'm`, `rm$'\x00'`, `rm$'\x00x'`, `pu$'\0'sh`, `a$'b\0c\0d'e$'\u0000'f`, `$'\0'`, `x$'\00101'y`} {
		line := "/usr/bin/printf '%s\\n' " + word
		forms := formsOf(Analyze(line, Options{}))
		for _, shell := range [][]string{{"bash", "-c"}, {"zsh", "-f", "-c"}} {
			out, err := exec.Command(shell[0], append(shell[1:], line)...).Output()
			if err != nil {
				t.Fatalf("%s %q: %v", shell[0], line, err)
			}
			want := "/usr/bin/printf %s\\n " + string(out[:len(out)-1])
			if !slices.Contains(forms, want) {
				t.Errorf("Analyze(%q): forms %q; %s runs %q", line, forms, shell[0], want)
			}
		}
	}
}
