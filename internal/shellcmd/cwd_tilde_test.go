package shellcmd

import (
	"slices"
	"testing"
)

// TestCwdTildeRead: a word starting ~+ is read as bash reads it (where the
// command runs) and as dash does (the word as written), a command or a
// redirection of its own each, and one starting $PWD or $(pwd) as where
// the command runs; ~-, $PWDX and a rest holding quotes, an expansion or
// a glob stay unknown until the line runs.
func TestCwdTildeRead(t *testing.T) {
	for _, tt := range []struct {
		line  string
		forms []string
	}{
		{"cat ~+/.env", []string{"cat ./.env", "cat ~+/.env"}},
		{"ls ~+", []string{"ls .", "ls ~+"}},
		{"cp ~+/a ~+/b", []string{"cp ./a ./b", "cp ~+/a ~+/b"}},
		{"cat ~-/x", []string{"cat <tilde expansion>"}},
		{"cat ~+/.en?", []string{"cat <tilde expansion>"}},
		{`cat ~+"/a"`, []string{"cat <tilde expansion>"}},
		{`cat $PWD/.env`, []string{"cat ./.env"}},
		{`cat "$PWD/.env"`, []string{"cat ./.env"}},
		{`cat "$PWD"/.env`, []string{"cat ./.env"}},
		{`cat ${PWD}/.env`, []string{"cat ./.env"}},
		{`cat "$(pwd)/.env"`, []string{"cat ./.env", "pwd"}},
		{"cat `pwd`/.env", []string{"cat ./.env", "pwd"}},
		{`ls "$PWD"`, []string{"ls ."}},
		{`cat $PWDX/a`, []string{"cat <parameter expansion $PWDX>"}},
		{`cat "$PWD/$f"`, []string{`cat <parameter expansion $PWD>`}},
	} {
		if got := formsOf(Analyze(tt.line, Options{})); !slices.Equal(got, tt.forms) {
			t.Errorf("Analyze(%q) forms %q, want %q", tt.line, got, tt.forms)
		}
	}
	a := Analyze("cat < ~+/.env", Options{})
	var targets []string
	for _, r := range a.Redirects {
		targets = append(targets, r.Target.Text)
	}
	for _, want := range []string{"./.env", "~+/.env"} {
		if !slices.Contains(targets, want) {
			t.Errorf(`Analyze("cat < ~+/.env") redirects %q, want %q among them`, targets, want)
		}
	}
}
