package shellcmd

import (
	"os/exec"
	"path"
	"slices"
	"testing"
)

// TestZshExtendedPatterns checks the patterns zsh's EXTENDED_GLOB "#", "##"
// and "~" are read as: each "x#" once gone and once "x*", each "x##" as
// "x*", and what comes before a "~" (quoted bytes escaped).
func TestZshExtendedPatterns(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{".en#v", []string{".ev", ".en*v"}},
		{".envX#", []string{".env", ".envX*"}},
		{".en##v", []string{".en*v"}},
		{".e[n]#v", []string{".ev", ".e[n]*v"}},
		{".e?#v", []string{".ev", ".e?*v"}},
		{`.e\n#v`, []string{".ev", `.e\n*v`}},
		{`.en\#v`, []string{`.en\#v`}},
		{".e*~x", []string{".e*"}},
		{".en#v~x", []string{".ev", ".en*v"}},
		{"a/#x", []string{"a/#x"}},
		{"é#", []string{"", "é*"}},
		{"a#b#", []string{"", "b*", "a*", "a*b*"}},
	} {
		got := zshExtendedPatterns(tt.in, false)
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("zshExtendedPatterns(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestZshExtendedCovered holds the readings of a word's EXTENDED_GLOB
// operators to zsh's: every name zsh with the option expands the word to
// is one some reading of it can be. Before, "#" and "~" were plain bytes,
// so setopt extendedglob; cat .envX# (approved, as a setopt is) read .env
// under a policy denying it (hostile cases zshextglob/repeat-*).
func TestZshExtendedCovered(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Fatalf("zsh is missing (scripts/zsh.sh installs it): %v", err)
	}
	dir := patternDir(t)
	for _, pat := range []string{
		".en#v", ".envX#", ".en##v", ".e[n]#v", ".e?#v", `.e\n#v`, "'.e'n#v", `".en"#v`, ".en#v~x",
		".e*~x", "*~x", "?#~e", "e#", ".e#n#v#", "x#.env", "[.]#env", ".ee#nv", "a#b#c#d#e#",
	} {
		w, ok := patternWord(pat)
		if !ok {
			t.Fatalf("cat %s does not read as one word", pat)
		}
		words := zshExtendedWords(w, false)
		if len(words) == 0 {
			t.Errorf("%q: no EXTENDED_GLOB reading", pat)
			continue
		}
		for _, name := range shellExpansions(t, zshExtendedGlobShell, dir, pat) {
			if !slices.ContainsFunc(words, func(w Word) bool { return wordCovers(w, name) }) {
				t.Errorf("zsh with extendedglob expands %q to %q, which none of %v can be", pat, name, words)
			}
		}
	}
}

// wordCovers reports whether w can be name, or is a word known only when
// the line runs.
func wordCovers(w Word, name string) bool {
	switch w.Kind {
	case Dynamic:
		return true
	case Glob:
		m, err := path.Match(w.Text, name)
		return err == nil && m
	}
	return w.Text == name
}

// TestZshExtendedReadingsOnlyWhereRead checks that a word whose "#" or "~"
// zsh does not read as an operator gets no reading of its own: quoted, first
// in the word, or a "~" in a word that is no pattern.
func TestZshExtendedReadingsOnlyWhereRead(t *testing.T) {
	for _, pat := range []string{`".en#v"`, `'.envX#'`, `.en\#v`, "HEAD~1", "notes.txt~", "x", "a*b"} {
		w, ok := patternWord(pat)
		if !ok {
			t.Fatalf("cat %s does not read as one word", pat)
		}
		if got := zshExtendedWords(w, false); got != nil {
			t.Errorf("%s: readings %v, want none", pat, got)
		}
	}
}

// TestZshExtendedGlobOption checks which commands may turn EXTENDED_GLOB
// on, under which a "^" first in a path element is zsh's negation.
func TestZshExtendedGlobOption(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"setopt extendedglob", true},
		{"setopt EXTENDED_GLOB", true},
		{"setopt Extended_Glob nullglob", true},
		{"set -o extendedglob", true},
		{"set -eo extendedglob", true},
		{"unsetopt noextendedglob", true},
		{"setopt -m 'ext*'", true},
		{"setopt $opt", true},
		{"emulate -L zsh", true},
		{"zsh --extendedglob -c 'cat ^x'", true},
		{"zsh -f -o extended_glob -c 'cat ^x'", true},
		{"zsh --extended-glob script.zsh", true},
		{"set -A options extendedglob on", true},
		{"set +A options EXTENDED_GLOB on", true},
		{"set -sA options b a", true},
		{"set -A $name extendedglob on", true},
		{"zsh -c 'setopt extendedglob'", false},
		{"set -A opts extendedglob on", false},
		{"set -- options extendedglob", false},
		{"zsh script.zsh --extendedglob", false},
		{"set -euo pipefail", false},
		{"set +o extendedglob", false},
		{"unsetopt extendedglob", false},
		{"setopt braceccl", false},
		{"set -x", false},
		{"echo extendedglob", false},
	} {
		a := Analyze(tt.line, Options{})
		if len(a.Commands) == 0 {
			t.Fatalf("%q: no command", tt.line)
		}
		if got := zshExtendedGlobOption(a.Commands[0].Forms[0]); got != tt.want {
			t.Errorf("zshExtendedGlobOption(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestZshExtendedGlobAfterModifiers: a setopt run through zsh's precommand
// modifiers (builtin, noglob, nocorrect, repeat N) sets the option in the
// shell all the same, and so does any assignment to zsh's options array, so
// a "^" first in a later word is read as zsh's negation after it, as after
// a plain setopt. Before, only the command's
// own first word was looked at, and builtin setopt extendedglob; sed -i
// s/a/b/ ^x edited the policy (hostile cases zshextglob/*-setopt-caret-*, zshextglob/*options*).
func TestZshExtendedGlobAfterModifiers(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"builtin setopt extendedglob; sed -i s/a/b/ ^x", true},
		{"noglob setopt extendedglob; sed -i s/a/b/ ^x", true},
		{"nocorrect setopt extendedglob; sed -i s/a/b/ ^x", true},
		{"repeat 1 setopt extendedglob; sed -i s/a/b/ ^x", true},
		{"builtin builtin setopt extendedglob; sed -i s/a/b/ ^x", true},
		{"set -A options extendedglob on; sed -i s/a/b/ ^x", true},
		{"options=(extendedglob on); sed -i s/a/b/ ^x", true},
		{"options+=(extendedglob on); sed -i s/a/b/ ^x", true},
		{"read -A options <<< 'extendedglob on'; sed -i s/a/b/ ^x", true},
		{": ${(AA)=options::=extendedglob on}; sed -i s/a/b/ ^x", true},
		{"builtin echo setopt extendedglob; sed -i s/a/b/ ^x", false},
		{"echo options; sed -i s/a/b/ ^x", false},
		{"sed -i s/a/b/ ^x", false},
	} {
		a := Analyze(tt.line, Options{})
		got := false
		for _, c := range a.Commands {
			for _, f := range c.Forms {
				if f[0].Text == "sed" && f[len(f)-1].Kind == Glob {
					got = true
				}
			}
		}
		if got != tt.want {
			t.Errorf("%q: ^x read as a negation %v, want %v", tt.line, got, tt.want)
		}
	}
}
