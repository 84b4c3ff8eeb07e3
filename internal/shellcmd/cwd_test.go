package shellcmd

import (
	"os"
	"slices"
	"strconv"
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
	ps := d.names()
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
	data, err := os.ReadFile("testdata/command_dirs.txt")
	if err != nil {
		t.Fatal(err)
	}
	for n, row := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if row == "" || row[0] == '#' {
			continue
		}
		fields := strings.Split(row, "\t")
		for i, f := range fields {
			if strings.HasPrefix(f, `"`) {
				if fields[i], err = strconv.Unquote(f); err != nil {
					t.Fatalf("command_dirs.txt:%d: field %d: %v", n+1, i+1, err)
				}
			}
		}
		if len(fields) < 3 || len(fields)%2 == 0 {
			t.Fatalf("command_dirs.txt:%d: %d fields; want a line and pairs of a command and a directory", n+1, len(fields))
		}
		a := Analyze(fields[0], Options{})
		for i := 1; i < len(fields); i += 2 {
			if got := dirOf(a, fields[i]); got != fields[i+1] {
				t.Errorf("command_dirs.txt:%d: %q: %q runs in %s; want %s", n+1, fields[0], fields[i], got, fields[i+1])
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
