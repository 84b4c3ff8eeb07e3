package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shell that expands aliases (sh, which is dash, always; bash -i, or
// bash with expand_aliases) replaces a command word that names an alias
// with the alias's text and reads on into the words after it, so the text
// and those words together are what runs: after alias e='echo ok;', the
// line "e rm x" is "echo ok; rm x" to sh, and after alias p='echo x >',
// "p GOVERNANCE.md" writes the policy. Reading the value alone (aliasHandler)
// and the use as a program named e showed neither.

// aliasDefs records the aliases an alias command defines with static
// words, for the commands after it.
func (w *walker) aliasDefs(words []Word) {
	if len(words) == 0 || words[0].Kind != Static || words[0].Text != "alias" {
		return
	}
	for _, wd := range words[1:] {
		if name, value, ok := strings.Cut(wd.Text, "="); ok && wd.Kind == Static && name != "" {
			if w.aliases == nil {
				w.aliases = map[string]string{}
			}
			w.aliases[name] = value
		}
	}
}

// aliasUse walks, for a simple command whose command word arg is an alias
// the line defined before, the text the shell reads once it expands it:
// the alias's text, then the statement's text after the word. An alias
// is not expanded again inside its own expansion, as the shells do not.
func (w *walker) aliasUse(st *syntax.Stmt, arg *syntax.Word, src string, depth int) {
	name := arg.Lit()
	value, ok := w.aliases[name]
	if !ok || w.expanding[name] {
		return
	}
	end := int(st.End().Offset())
	start := int(arg.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return
	}
	if w.expanding == nil {
		w.expanding = map[string]bool{}
	}
	w.expanding[name] = true
	defer delete(w.expanding, name)
	w.line(value+src[start:end], depth+1, currentShell)
}

// commandWordArg returns the word of call that is its command word when
// bash reads the words before it as assignments, or nil.
func commandWordArg(call *syntax.CallExpr, src string) *syntax.Word {
	for _, arg := range call.Args {
		if !assignableArg(arg, src) {
			return arg
		}
	}
	return nil
}
