package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bash reads some text as a here-document's body is read, where a single
// quote is a character and not a quote: an arithmetic expression ($((...)),
// $[...], ((...)), for ((...)), an array subscript, a substring offset)
// and the word of ${x:-w}, ${x:+w}, ${x:=w} and ${x:?w} inside double
// quotes or an unquoted here-document's body, and there too the
// replacement of ${x/pat/rep} at a compatibility level of 4.2 or lower. The grammar here reads '...' (and $'...') there as quoted text, so
// echo ${a['$(rm x)']}, echo $(( '$(rm x)' )) and echo "${u:-'$(rm x)'}"
// looked like echo with literal words, where bash runs rm x.
//
// literalQuotes walks such quoted text as bash reads it: each command in it
// is a command of the line, and the line needs approval, since what the
// quotes hold is not the static text it seems.

// literalQuotes finds the quoted text inside n that bash reads unquoted.
func (w *walker) literalQuotes(n syntax.Node, src string, depth int) {
	switch n := n.(type) {
	case *syntax.ArithmExp:
		w.quotesIn(n.X, src, depth)
	case *syntax.ArithmCmd:
		w.quotesIn(n.X, src, depth)
	case *syntax.CStyleLoop:
		for _, x := range []syntax.ArithmExpr{n.Init, n.Cond, n.Post} {
			w.quotesIn(x, src, depth)
		}
	case *syntax.ParamExp:
		w.quotesIn(n.Index, src, depth)
		if n.Slice != nil {
			w.quotesIn(n.Slice.Offset, src, depth)
			w.quotesIn(n.Slice.Length, src, depth)
		}
	case *syntax.Assign:
		w.quotesIn(n.Index, src, depth)
	case *syntax.ArrayElem:
		w.quotesIn(n.Index, src, depth)
		w.elementIndex(n.Index, src, depth)
	case *syntax.DblQuoted:
		w.quotedDefaults(n.Parts, src, depth)
	case *syntax.BinaryTest:
		w.testOperands(n, src, depth)
	case *syntax.Redirect:
		if n.Hdoc != nil && (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && !isQuoted(n.Word) {
			w.quotedDefaults(n.Hdoc.Parts, src, depth)
		}
	}
}

// quotedDefaults finds, in the parts of a double-quoted string, the words
// of the expansions whose single quotes bash reads as characters.
func (w *walker) quotedDefaults(parts []syntax.WordPart, src string, depth int) {
	for _, part := range parts {
		p, ok := part.(*syntax.ParamExp)
		if ok && p.Repl != nil && p.Repl.With != nil {
			// The replacement of ${x/pat/rep}: bash below 4.3, or any bash
			// whose compatibility level is 4.2 or lower (BASH_COMPAT=42,
			// shopt -s compat42, the person's start-up files), reads its
			// single quotes as characters, so "${PWD/?/'$(rm x)'}" runs
			// rm x there.
			w.quotesIn(p.Repl.With, src, depth)
			w.quotedDefaults(p.Repl.With.Parts, src, depth)
		}
		if !ok || p.Exp == nil || p.Exp.Word == nil {
			continue
		}
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
			syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			w.quotesIn(p.Exp.Word, src, depth)
			w.quotedDefaults(p.Exp.Word.Parts, src, depth)
		}
	}
}

// quotesIn walks the quoted text below x (not inside a command
// substitution, whose quotes are quotes again) as bash reads it, no deeper
// than maxNesting: the line's own walk, which calls it for every
// expansion it meets, stops there too (and says so), so that each call
// costs at most that depth and not the whole subtree again ("${a[" nested
// 20,000 deep took seconds).
func (w *walker) quotesIn(x syntax.Node, src string, depth int) {
	if x == nil {
		return
	}
	if wd, ok := x.(*syntax.Word); ok && wd == nil {
		return
	}
	walkNesting(x, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false // their own statements, walked as such
		case *syntax.SglQuoted:
			if strings.ContainsAny(m.Value, "$`") {
				w.problem("%s is quoted in the line but bash reads the quotes as characters there (an arithmetic expression, an array subscript, or ${x:-...} or the replacement of ${x/pat/rep} inside double quotes or a here-document), so the expansions in it run", sourceOf(m, src))
				w.line(": "+hereDocument(m.Value), depth+1, dialectsOf("bash"))
			}
		}
		return true
	}, nil)
}

// hereDocument returns text as the body of an unquoted here-document, which
// bash expands as it expands text whose quotes are characters.
func hereDocument(text string) string {
	delim := "ACP_BRIDGE_EOF"
	for strings.Contains(text, delim) {
		delim += "_"
	}
	return "<<" + delim + "\n" + text + "\n" + delim + "\n"
}
