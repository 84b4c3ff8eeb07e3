package shellcmd

import "testing"

// TestNoPath: a command that starts a program with no PATH (env -i, env
// -, env -u PATH in each spelling, env -S splitting such options from a
// string, exec -c, unset PATH) says so in Command.NoPath, as do options
// env or exec cannot read; one that gives PATH again, removes another
// variable, or runs no command does not.
func TestNoPath(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"env -i make", true},
		{"env - make", true},
		{"env --ignore-environment make", true},
		{"env --ign make", true},
		{"env -u PATH make", true},
		{"env -uPATH make", true},
		{"env --unset PATH make", true},
		{"env --unset=PATH make", true},
		{"env --un=PATH make", true},
		{"env -u X -u PATH make", true},
		{"env -iv make", true},
		{"env -i -- make", true},
		{"env -i HOME=$HOME make", true},
		{`env -i "$X" make`, true},
		{"env -i PATH=$X make", true},
		{`env -u "$X" FOO=$Y make`, true},
		{"env -S '-i make'", true},
		{"env -S'-u PATH' make", true},
		{"env $OPT make", true},
		{"/usr/bin/env -i make", true},
		{"timeout 5 env -i make", true},
		{"exec -c make", true},
		{"exec -cl make", true},
		{"unset PATH; make", true},
		{"unset -v PATH", true},
		{"unset -n PATH", true},
		{"unset -- PATH", true},
		{"unset $x", true},
		{"bash -c 'unset PATH; make'", true},
		{"make", false},
		{"env FOO=1 make", false},
		{"env -u GOFLAGS go test ./...", false},
		{"env -i PATH=/usr/bin:/bin make", false},
		{"env -i HOME=$HOME PATH=/usr/bin:/bin make", false},
		{`env -i PATH="$PATH" make`, false},
		{"env -u PATH PATH=/bin make", false},
		{"env -S 'FOO=1 make'", false},
		{"env -i", false},
		{"env -u PATH", false},
		{"exec make", false},
		{"exec -l make", false},
		{"unset -f PATH", false},
		{"unset GOFLAGS", false},
	}
	for _, tt := range tests {
		a := Analyze(tt.line, Options{})
		why := ""
		for _, c := range a.Commands {
			if c.NoPath != "" {
				why = c.NoPath
			}
		}
		if (why != "") != tt.want {
			t.Errorf("Analyze(%q): NoPath %q; want removed %v", tt.line, why, tt.want)
		}
	}
}

// TestEnvComputedAssignment: env's NAME=value word computed at run time is
// its first operand, not an option it cannot read, and sets NAME: env
// PATH=$PATH: make gives make a PATH ending in an empty element, as
// PATH=$PATH: make does.
func TestEnvComputedAssignment(t *testing.T) {
	tests := []struct{ line, name, value string }{
		{"env PATH=$PATH: make", "PATH", "$PATH:"},
		{"env -i HOME=$HOME make", "HOME", "$HOME"},
		{"env FOO=1 PATH=:$PATH make", "PATH", ":$PATH"},
	}
	for _, tt := range tests {
		a := Analyze(tt.line, Options{})
		found := false
		for _, as := range a.Assignments {
			if as.Name == tt.name && as.Value == tt.value && !as.Static {
				found = true
			}
		}
		if !found {
			t.Errorf("Analyze(%q): assignments %+v; want %s=%s, computed", tt.line, a.Assignments, tt.name, tt.value)
		}
		if len(a.Commands) == 0 || a.Commands[0].Forms[len(a.Commands[0].Forms)-1][0].Text != "make" {
			t.Errorf("Analyze(%q): commands %+v; want env running make", tt.line, a.Commands)
		}
	}
}
