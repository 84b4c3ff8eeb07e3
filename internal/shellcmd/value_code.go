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

// makeOperandValues reads each NAME=VALUE operand of make (NAME:=, ::=,
// +=, ?= and != too). make puts every such variable into the environment
// of each recipe, and of every program a recipe runs, as a variable the
// shell exports ("make PATH=.:$PATH" has a recipe's "helper" run ./helper,
// "make GOFLAGS=-toolexec=./t" reaches the go a recipe runs), and uses
// SHELL as its recipes' shell: so the operand is recorded as an assignment
// of the line, decided as "NAME=VALUE make" is, though the shell itself
// never holds it (a later word's $NAME does not expand to it). A value
// may also be a command line (ValueCode), which a recipe may expand into
// one, and the value of NAME!=VALUE is one: make runs it in sh.
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
		if !ok {
			continue
		}
		// make trims the blanks around a name and before a value
		// ("X != cmd", " Y = 3").
		name = strings.TrimRight(name, " \t")
		shell := strings.HasSuffix(name, "!")
		appends := strings.HasSuffix(name, "+")
		name = strings.Trim(strings.TrimRight(name, ":+?!"), " \t")
		value = strings.TrimLeft(value, " \t")
		if name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		w.keep(makeAssignment(name, value, appends, c.Dir))
		w.cur = c.Dir
		switch t, code := ValueCode(value); {
		case shell:
			w.line(value, depth+1, dialectsOf("sh"))
		case code:
			w.line(t, depth+1, dialectsOf("sh"))
		}
	}
}

// makeDirRefs are make's references to the directory it runs in, which
// begin a value as $PWD begins a shell word.
var makeDirRefs = []string{"$(CURDIR)", "${CURDIR}", "$(PWD)", "${PWD}", "$(shell pwd)", "${shell pwd}"}

// makeAssignment is the assignment a make operand NAME=VALUE makes for
// what make runs. A value holding a make reference ("$(X)") is known only
// when make expands it: not static, with each ':' element that starts
// with the directory make runs in written as $PWD, which the readers of a
// line's values resolve ("make 'PATH=$(CURDIR)/tools:$(PATH)'").
func makeAssignment(name, value string, appends bool, dir Dir) Assignment {
	if !strings.Contains(value, "$") {
		return Assignment{Name: name, Value: value, Static: true, Dir: dir, Append: appends}
	}
	elems := strings.Split(value, ":")
	for i, el := range elems {
		for _, ref := range makeDirRefs {
			if rest, ok := strings.CutPrefix(el, ref); ok {
				elems[i] = "$PWD" + rest
				break
			}
		}
	}
	return Assignment{Name: name, Value: strings.Join(elems, ":"), Dir: dir, Append: appends}
}
