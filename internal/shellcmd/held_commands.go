package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command word built of literals and expansions whose values the line
// shows in full (ParamValues: a plain $NAME, an array's element, a default
// value, ...) runs the program its value names: after R=rm, "$R x" runs
// rm x, and "${u:-rm} x" does where u is unset. Such a word was only a word computed at
// run time, asked about, so the person approving it let a program a rule
// refuses run ("R=rm; $R x" past Bash(rm:*)), while R='rm x'; $R, whose
// value reads as a command line, was refused. Each value the word may
// have is read with the statement's words after it, as the shell runs it,
// and its commands are decided as the line's own.

// heldCommandWord walks, for a simple command whose command word arg is
// not static but made of literals and expansions the line shows in full
// (heldExpansions), each value the word may have followed by the
// statement's text after it.
func (w *walker) heldCommandWord(st *syntax.Stmt, arg *syntax.Word, src string, depth int) {
	if wd := evalWord(arg, src); wd.Kind != Dynamic {
		return
	}
	values, ok := w.heldExpansions(arg, src)
	if !ok {
		return
	}
	end := int(st.End().Offset())
	start := int(arg.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return
	}
	rest := src[start:end]
	for _, v := range values {
		v = strings.TrimSpace(v)
		key := "$held:" + v
		if v == "" || w.expanding[key] {
			continue
		}
		if w.expanding == nil {
			w.expanding = map[string]bool{}
		}
		w.expanding[key] = true
		w.line(v+rest, depth+1, currentShell)
		delete(w.expanding, key)
	}
}
