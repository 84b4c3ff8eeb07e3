package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// dirOf returns the directory of the first command whose source is src,
// or whose last form starts with the word src names after "=" ("=touch"),
// described as dirText does; "missing" when no command is so.
func dirOf(a *Analysis, src string) string {
	for _, c := range a.Commands {
		last := c.Forms[len(c.Forms)-1]
		if c.Source == src || strings.HasPrefix(src, "=") && last[0].Text == src[1:] {
			return dirText(c.Dir)
		}
	}
	return "missing"
}

// dirText describes d compactly: "?" for unknown, else its paths sorted
// and joined by "|" ("." for the start).
func dirText(d Dir) string {
	if d.Unknown {
		return "?"
	}
	var ps []string
	for _, p := range d.paths() {
		if p == "" {
			p = "."
		}
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return strings.Join(ps, "|")
}

// TestCommandDirs checks where each command of a line runs, as the shell
// runs it: a cd with one operand given in full moves the commands after
// it in the same list (and may have failed, so a later command after ";"
// runs in either place), a subshell, a substitution or a pipeline keeps
// its cd to itself, and what the walk cannot follow makes the directory
// unknown.
func TestCommandDirs(t *testing.T) {
	tests := []struct {
		line string
		want map[string]string // command source -> dirText
	}{
		{"touch x", map[string]string{"touch x": "."}},
		{"cd /etc && touch x", map[string]string{"cd /etc": ".", "touch x": "/etc"}},
		{"cd /etc; touch x", map[string]string{"touch x": ".|/etc"}},
		// A cd that failed leaves the shell where it was; one that
		// succeeded is not followed by what || runs, but the walk
		// keeps both, which is only stricter.
		{"cd /etc || touch x", map[string]string{"touch x": ".|/etc"}},
		{"cd /etc && touch x; touch y", map[string]string{"touch x": "/etc", "touch y": ".|/etc"}},
		{"cd sub && cd ../x && touch y", map[string]string{"cd ../x": "sub", "touch y": "sub/../x"}},
		{"cd -P link/.. && touch y", map[string]string{"touch y": "link/.."}},
		{"cd -- /etc && touch y", map[string]string{"touch y": "/etc"}},
		{"pushd /etc && touch x", map[string]string{"touch x": "/etc"}},
		{"chdir /etc && touch x", map[string]string{"touch x": "/etc"}},
		{"(cd /etc; touch x); touch y", map[string]string{"touch x": ".|/etc", "touch y": "."}},
		{"(cd /etc && touch x) && touch y", map[string]string{"touch x": "/etc", "touch y": "."}},
		{"echo $(cd /etc && touch x) && touch y", map[string]string{"touch x": "/etc", "touch y": "."}},
		{"{ cd /etc && touch x; } && touch y", map[string]string{"touch x": "/etc", "touch y": "/etc"}},
		{"cd /etc | touch x; touch y", map[string]string{"touch x": ".", "touch y": "."}},
		{"touch x | cd /etc && touch y", map[string]string{"touch y": ".|/etc"}},
		{"if cd /etc; then touch x; else touch y; fi; touch z", map[string]string{"touch x": "/etc", "touch y": ".|/etc", "touch z": ".|/etc"}},
		{"cd /etc & touch x", map[string]string{"touch x": "."}},
		{"cd /etc && bash -c 'cd sub && touch x'", map[string]string{"cd sub": "/etc", "touch x": "/etc/sub"}},
		{"cd /etc && echo hi > out", map[string]string{"echo hi > out": "/etc"}},
		{"cd && touch x", map[string]string{"touch x": "?"}},
		{"cd - && touch x", map[string]string{"touch x": "?"}},
		{`cd "$HOME" && touch x`, map[string]string{"touch x": "?"}},
		{"cd ~ && touch x", map[string]string{"touch x": "?"}},
		{"cd a b && touch x", map[string]string{"touch x": "?"}},
		{"cd +1 && touch x", map[string]string{"touch x": "?"}},
		{"popd && touch x", map[string]string{"touch x": "?"}},
		{"pushd && touch x", map[string]string{"touch x": "?"}},
		{"eval 'cd /etc'; touch x", map[string]string{"touch x": "?"}},
		{"builtin cd /etc; touch x", map[string]string{"touch x": "?"}},
		{"command cd /etc; touch x", map[string]string{"touch x": "?"}},
		{"source ./env.sh; touch x", map[string]string{"touch x": "?"}},
		{"eval c'd' /etc; touch x", map[string]string{"touch x": "?"}},
		{"eval \"$X\"; touch x", map[string]string{"touch x": "?"}},
		{"noglob cd /etc; touch x", map[string]string{"touch x": "?"}},
		{"eval echo hi; touch x", map[string]string{"touch x": "."}},
		{"bash -c 'cd /etc'; touch x", map[string]string{"touch x": "."}},
		{"echo $(cd /etc; pwd); touch x", map[string]string{"touch x": "."}},
		{"$c /etc; touch x", map[string]string{"touch x": "?"}},
		{"for i in 1 2; do touch x; cd sub; done; touch y", map[string]string{"touch x": "?", "touch y": "?"}},
		{"while true; do touch x; done; cd sub && touch y", map[string]string{"touch x": ".", "touch y": "sub"}},
		{"f() { cd /etc; }; f; touch x", map[string]string{"touch x": "?"}},
		{"f() { touch x; }; cd /etc && f", map[string]string{"touch x": "?"}},
		{"f() { touch x; }; f", map[string]string{"touch x": "."}},
		{"CDPATH=/etc; cd sub && touch x", map[string]string{"touch x": "?"}},
		{"CDPATH=/etc; cd ./sub && touch x", map[string]string{"touch x": "./sub"}},
		{"shopt -s cdable_vars; cd v && touch x", map[string]string{"touch x": "?"}},
		{"env -C /etc touch x", map[string]string{"env -C /etc touch x": "?"}},
		{"sudo -D /etc touch x", map[string]string{"sudo -D /etc touch x": "?"}},
		{"env -C /etc sh -c 'touch x'", map[string]string{"touch x": "?"}},
		{"cd /etc && sh <<'EOF'\ntouch x\nEOF", map[string]string{"touch x": "/etc"}},
		{`find . -execdir touch x \;`, map[string]string{"=touch": "?"}},
		{`find . -exec touch x \;`, map[string]string{"=touch": "."}},
	}
	for _, tt := range tests {
		a := Analyze(tt.line, Options{})
		for src, want := range tt.want {
			if got := dirOf(a, src); got != want {
				t.Errorf("%q: %q runs in %s; want %s", tt.line, src, got, want)
			}
		}
	}
}

// TestCommandDirsRedirects checks that a redirection is opened where its
// statement runs.
func TestCommandDirsRedirects(t *testing.T) {
	a := Analyze("cd /etc && echo x > a; (cd /tmp; cat < b); echo y > c", Options{})
	// After "cd /etc && ...;" the shell is in either; the subshell's cd
	// may fail too.
	want := map[string]string{"a": "/etc", "b": ".|/etc|/tmp", "c": ".|/etc"}
	for _, r := range a.Redirects {
		if got := dirText(r.Dir); got != want[r.Target.Text] {
			t.Errorf("redirection to %s opened in %s; want %s", r.Target.Text, got, want[r.Target.Text])
		}
	}
}

// TestCommandDirsKeepsBoth checks that the same command in two directories
// is listed twice: it opens other files in each.
func TestCommandDirsKeepsBoth(t *testing.T) {
	a := Analyze("touch x && cd /etc && touch x", Options{})
	var dirs []string
	for _, c := range a.Commands {
		if c.Source == "touch x" {
			dirs = append(dirs, dirText(c.Dir))
		}
	}
	if strings.Join(dirs, " ") != ". /etc" {
		t.Errorf("touch x listed in %v; want in . and in /etc", dirs)
	}
}

// FuzzCommandDirs checks that no line makes the directory walk panic, that
// what it keeps is bounded, and that a line with no command that could
// change directory runs every command where it starts.
func FuzzCommandDirs(f *testing.F) {
	for _, s := range []string{"cd /etc && touch x", "(cd a; b) | c", "f() { cd x; }; f", "for i in 1; do cd x; done",
		"if cd a; then b; elif cd c; then d; else e; fi", "cd a; cd b; cd c; cd d; cd e; cd f; cd g; cd h; cd i; x",
		"case x in a) cd y;; esac; z", "echo ${ cd x; }; y", "eval cd x; y", "coproc cd x; y", "time cd x && y", "a/; b", "shopt -s autocd; a; b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a := Analyze(line, Options{})
		mayMove := mentionsCd(line) || strings.Contains(line, "source") || strings.Contains(line, ".") ||
			strings.ContainsAny(line, "$`*?[~")
		// autocd: a command named by a directory goes there.
		mayMove = mayMove || strings.Contains(strings.ToLower(strings.ReplaceAll(line, "_", "")), "autocd")
		for _, c := range a.Commands {
			for _, n := range c.Notes {
				mayMove = mayMove || n.Kind == NotStatic // a command word computed at run time
			}
			for _, form := range c.Forms {
				mayMove = mayMove || len(form) > 0 && dirOnly(form[0].Text)
			}
		}
		for _, c := range a.Commands {
			d := c.Dir
			if len(d.Paths) > maxDirPaths {
				t.Fatalf("%q: %q runs in %d directories, more than %d", line, c.Source, len(d.Paths), maxDirPaths)
			}
			if d.Unknown && d.Why == "" {
				t.Fatalf("%q: %q runs in an unknown directory with no reason", line, c.Source)
			}
			if !mayMove && d.Moved() {
				t.Fatalf("%q: %q runs in %s, though nothing in the line changes directory", line, c.Source, dirText(d))
			}
		}
	})
}
