package shellcmd

import (
	"slices"
	"testing"
)

// TestZshTiedArrays: an assignment to an array zsh ties to a list variable
// (path to PATH, cdpath to CDPATH, ...), whole, by element, appended to, or
// before a command, is an assignment to the variable too, each element a
// value it may hold; a value known only when the line runs is one the
// variable may hold too. Another array of a lowercase name sets nothing
// else.
func TestZshTiedArrays(t *testing.T) {
	tests := []struct {
		line, name string
		want       []string // static values name is given
		unknown    bool     // a value known only when the line runs
	}{
		{line: "path=.; ls", name: "PATH", want: []string{"."}},
		{line: "path= ls", name: "PATH", want: []string{""}},
		{line: "path=(sub /usr/bin); ls", name: "PATH", want: []string{"sub", "/usr/bin"}},
		{line: "path+=(sub); ls", name: "PATH", want: []string{"sub"}},
		{line: "path[1]=sub; ls", name: "PATH", want: []string{"sub"}, unknown: true}, // the other elements stay
		{line: "path=$X; ls", name: "PATH", unknown: true},
		{line: "cdpath=(sub); cd x", name: "CDPATH", want: []string{"sub"}},
		{line: "fpath=(fns); autoload f", name: "FPATH", want: []string{"fns"}},
		{line: "paths=(sub); ls", name: "PATH"},
		{line: "Path=sub; ls", name: "PATH"},
	}
	for _, tt := range tests {
		a := Analyze(tt.line, Options{})
		var got []string
		unknown := false
		for _, as := range a.Assignments {
			switch {
			case as.Name != tt.name:
			case as.Static:
				got = append(got, as.Value)
			default:
				unknown = true
			}
		}
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("Analyze(%q): %s values %q; want %q among them", tt.line, tt.name, got, w)
			}
		}
		if len(tt.want) == 0 && len(got) > 0 {
			t.Errorf("Analyze(%q): %s values %q; want none", tt.line, tt.name, got)
		}
		if unknown != tt.unknown {
			t.Errorf("Analyze(%q): %s given a value known when the line runs: %v; want %v", tt.line, tt.name, unknown, tt.unknown)
		}
	}
}
