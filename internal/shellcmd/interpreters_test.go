package shellcmd

import (
	"strings"
	"testing"
)

// TestScriptToolNotes pins what the analysis says of awk and sed, which
// run a script given by an option, in a file or as their first operand; a
// command the script gives is analysed as a command of its own (the sh
// print pipes to reads its input), and s///e runs the pattern space.
func TestScriptToolNotes(t *testing.T) {
	for _, tt := range []struct {
		line, want string // want: the notes' texts, joined by "; "
	}{
		{"awk '{print $1}' f", ""},
		{"gawk", ""},
		{"awk --frobnicate x", "awk: unknown option --frobnicate, so the program it runs is not known"},
		{"awk -f prog.awk f", "awk runs the program in the file prog.awk, which the line does not show"},
		{"mawk --exec prog.awk", "mawk runs the program in the file prog.awk, which the line does not show"},
		{"awk \"$P\" f", "awk: an option word is not static: \"$P\" (parameter expansion $P), so the program it runs is not known"},
		{"awk -- \"$P\" f", "awk program is not static: \"$P\" (parameter expansion $P)"},
		{"awk '{system(\"id\")}'", "awk program runs commands (system or a pipe)"},
		{"awk -e '{print}' --source 'BEGIN{print | \"sh\"}' f", "awk program runs commands (system or a pipe); sh runs the commands it reads from its input"},
		{"awk -e '{print}' '{system(\"id\")}'", ""},
		{"sed -n 's/a/b/p' f", ""},
		{"sed", ""},
		{"sed --frobnicate x", "sed: unknown option --frobnicate, so the script it runs is not known"},
		{"gsed -f x.sed f", "gsed runs the script in the file x.sed, which the line does not show"},
		{"sed --file=x.sed f", "sed runs the script in the file x.sed, which the line does not show"},
		{"sed \"$S\" f", "sed: an option word is not static: \"$S\" (parameter expansion $S), so the script it runs is not known"},
		{"sed -n -- \"$S\" f", "sed script is not static: \"$S\" (parameter expansion $S)"},
		{"sed 's/a/b/e' f", "sed script runs commands (the e command or flag); the e flag of sed's s command runs the pattern space, known only when the line runs"},
		{"sed -e p --expression '1e id' f", "sed script runs commands (the e command or flag)"},
		{"sed -e p 's/a/b/e' f", ""},
		{"sed 's/.*/touch x/ew /dev/stdout' f", "sed script runs commands (the e command or flag); the e flag of sed's s command runs the pattern space, known only when the line runs"},
		{"sed 's|a|b|ew /tmp/d|y' f", "sed script runs commands (the e command or flag); the e flag of sed's s command runs the pattern space, known only when the line runs; sed script opens files it names (r, R, w, W or the w flag of s), which the bridge does not decide as paths"},
		{"sed 's/a\\/b/c/e' f", "sed script runs commands (the e command or flag); the e flag of sed's s command runs the pattern space, known only when the line runs"},
		{"sed 's/a/b\\/c/ge' f", "sed script runs commands (the e command or flag); the e flag of sed's s command runs the pattern space, known only when the line runs"},
		{"sed 's/a/b/we' f", "sed script opens files it names (r, R, w, W or the w flag of s), which the bridge does not decide as paths"},
		{"sed 's/e/e/g' f", ""},
		{"sed 's/a\\/e/b/' f", ""},
		{"sed 's/a/b/w /dev/stdout' f", ""},
	} {
		var notes []string
		for _, c := range Analyze(tt.line, Options{}).Commands {
			for _, n := range c.Notes {
				notes = append(notes, n.Text)
			}
		}
		if got := strings.Join(notes, "; "); got != tt.want {
			t.Errorf("Analyze(%q) notes %q, want %q", tt.line, got, tt.want)
		}
	}
}
