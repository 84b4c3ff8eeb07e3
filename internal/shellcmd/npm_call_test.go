package shellcmd

import "testing"

// TestNpmCallDecided: npm exec runs --call's command line, -c being its
// short form (npm 10 runs rm x for each line that runs it), so the command
// is a command of the line, and npm itself is still decided; after "--"
// the words are the command's.
func TestNpmCallDecided(t *testing.T) {
	for _, tt := range []struct {
		line   string
		runsRm bool
	}{
		{"npm exec -c 'rm x'", true},
		{"npm exec -c='rm x'", true},
		{"npm exec -yc 'rm x'", true},
		{"npm x -c 'rm x'", true},
		{"npm -c 'rm x' exec", true},
		{"npm exec --call 'rm x'", true},
		{"npm exec --call='rm x'", true},
		{"npm exec --no-call -c 'rm x'", true},
		{"npm run build -- -c 'rm x'", false},
		{"npm test", false},
		{"npm ci", false},
	} {
		a := checkRunsRm(t, tt.line, tt.runsRm)
		if len(a.Commands) == 0 || a.Commands[0].Transparent {
			t.Errorf("Analyze(%q): npm is not decided as a command of its own", tt.line)
		}
	}
}
