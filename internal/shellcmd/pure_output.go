package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command that only prints words the line shows (echo, printf, or cat
// of a static here-document) prints text the line shows: "echo 'rm x' |
// bash" runs rm x, and so do "$(echo rm) x" and "V=rm; $(printf %s $V) x".
// The shell reading that text from a pipe was only asked about, and so was
// a command word made of such a substitution, so a person's approval ran a
// program a rule refuses. That text is the piped shell's input, and the
// substitution's value.

// pipedInput returns the input of st when it is on the right of a pipe
// whose left side prints text the line shows (pureOutput), nil otherwise.
func (w *walker) pipedInput(st *syntax.Stmt, src string) *stdin {
	from, piped := w.pipedFrom[st]
	if !piped {
		return nil
	}
	out, ok := w.pureOutput(from, src)
	if !ok {
		return nil
	}
	return &stdin{text: out, known: true}
}

// pureOutput returns what st prints where it is echo, printf or cat of a
// static input, with words the line shows in full (one value each) and no
// redirection but its input's. ok is false for anything else, for echo
// given -e or a backslash (bash's echo and dash's read it differently),
// and for a word with several values.
func (w *walker) pureOutput(st *syntax.Stmt, src string) (string, bool) {
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Assigns) > 0 || len(call.Args) == 0 || st.Background || st.Coprocess {
		return "", false
	}
	for _, r := range st.Redirs {
		if r.Op != syntax.WordHdoc && r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc {
			return "", false
		}
	}
	var words []string
	for _, arg := range call.Args {
		fields, ok := w.elementValues(arg, src)
		if !ok || len(fields) != 1 {
			return "", false
		}
		words = append(words, fields[0]...)
	}
	if len(words) == 0 {
		return "", false
	}
	switch words[0] {
	case "echo":
		return echoOutput(words[1:])
	case "printf":
		args := make([]Word, 0, len(words)-1)
		for _, wd := range words[1:] {
			args = append(args, Word{Kind: Static, Text: wd})
		}
		return printfValue(args)
	case "cat":
		if in := stdinOf(st, src); len(words) == 1 && in != nil && in.known {
			return in.text, true
		}
	}
	return "", false
}

// echoOutput returns what echo prints for args: its -n options first, then
// the words joined by blanks and a newline unless -n. ok is false for -e,
// -E or a backslash anywhere, which bash and dash print differently.
func echoOutput(args []string) (string, bool) {
	newline := true
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		if strings.ContainsAny(args[0], "eE") {
			return "", false
		}
		newline = false
		args = args[1:]
	}
	out := strings.Join(args, " ")
	if strings.Contains(out, `\`) {
		return "", false
	}
	if newline {
		out += "\n"
	}
	return out, true
}
