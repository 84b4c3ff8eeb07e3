package shellcmd

import (
	"regexp"
	"strings"
)

// A variable's value may be a command line whatever its name: make takes
// every variable of its environment, and each NAME=VALUE operand, as a
// make variable, and a recipe (a built-in one too: "$(CC) $(CFLAGS) ...
// -o $@") hands what it expands to to sh, so "CC='rm x;' make a" runs rm
// with no makefile of the agent's, and make runs "$(shell rm x)" in a
// value as it expands it. A value of a name no list holds cannot be told
// from text by its name (EnvValueIsCommandLine knows EDITOR, PAGER, ...),
// so it is read as an unknown program's word is (unknown_words.go): when
// it holds a blank or a shell operator, parses as sh and looks like a
// command line (looksLikeCode), its commands are decided as the line's
// own, and the strictest decision stands. "-O2 -Wall", "hello world" and
// "select * from t" are text.

// makeShell and makeShellBraced are make's shell function, $(shell cmd)
// and ${shell cmd}: cmd runs in sh as make expands the value.
var (
	makeShell       = regexp.MustCompile(`\$\(shell[ \t]+`)
	makeShellBraced = regexp.MustCompile(`\$\{shell[ \t]+([^}]*)\}`)
)

// ValueCode returns the sh text the value of a variable holds that a
// program may run as a command line, with make's $(shell cmd) read as
// sh's $(cmd); ok is false for a value that does not look like one.
func ValueCode(value string) (text string, ok bool) {
	t := makeShell.ReplaceAllString(makeShellBraced.ReplaceAllString(value, "$$($1)"), "$(")
	if !strings.ContainsAny(t, " \t\n;&|`$()<>") {
		return "", false
	}
	var langs dialects
	for _, lang := range dialectsOf("sh") {
		if _, err := parse(t, lang); err == nil {
			langs = append(langs, lang)
		}
	}
	if len(langs) == 0 || !looksLikeCode(t, langs) {
		return "", false
	}
	return t, true
}

// makeOperandValues reads the value of each NAME=VALUE operand of make
// (NAME:=, ::=, +=, ?= and != too), a make variable its recipes may
// expand into a command line, as ValueCode reads a variable's: its
// commands are decided as the line's own, run where c runs.
func (w *walker) makeOperandValues(c *Command, form []Word, depth int) {
	switch form[0].Name() {
	case "make", "gmake":
	default:
		return
	}
	for _, wd := range form[1:] {
		if wd.Kind != Static || strings.HasPrefix(wd.Text, "-") {
			continue
		}
		name, value, ok := strings.Cut(wd.Text, "=")
		name = strings.TrimRight(name, ":+?!")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		if t, ok := ValueCode(value); ok {
			w.cur = c.Dir
			w.line(t, depth+1, dialectsOf("sh"))
		}
	}
}
