package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bash expands the subscript of an element of a compound assignment to an
// indexed array twice: once with the whole [subscript]=value word (quote
// removal included), and again when it evaluates the result as an
// arithmetic expression, as it expands $((...)). So the quoting that hides
// a substitution from the first expansion hands it to the second:
// a=([\$\(rm\ x\)]=1), a=(["\$(rm x)"]=1) and a=([\`rm\ x\`]=1) run rm x,
// while a[\$\(rm\ x\)]=1 and ${a[\$\(rm\ x\)]} do not. The grammar reads
// such a subscript as quoted text, so the line looked like an assignment
// of literals.

// elementIndex reads the subscript x of a compound array assignment's
// element as bash's second expansion reads it: the text its first
// expansion leaves, inside $((...)), each command in it a command of the
// line. An associative array's subscript is expanded once; the bridge does
// not tell the two apart, so it reads both so.
func (w *walker) elementIndex(x syntax.ArithmExpr, src string, depth int) {
	if x == nil {
		return
	}
	raw := sourceOf(x, src)
	if !strings.ContainsAny(raw, "\\'\"") {
		// Without quoting, the first expansion leaves the text as
		// written but for its expansions, whose values the line's
		// evaluations check.
		return
	}
	val, ok := firstExpansion(raw)
	if !ok {
		if strings.ContainsAny(raw, "$`") {
			w.problem("bash expands the subscript %s of a compound array assignment twice, and the text its first expansion leaves is not known, so the expansions in it may run", raw)
		}
		return
	}
	if !strings.ContainsAny(val, "$`") {
		return
	}
	w.problem("bash expands the subscript %s of a compound array assignment twice, the second time as %s, so the expansions in it run", raw, val)
	w.line(": $(( "+val+" ))", depth+1, dialectsOf("bash"))
}

// firstExpansion returns the text bash's word expansion leaves of raw read
// as one word, its expansions left out; ok is false when raw is not one
// word. raw is read as an argument, where name[ starts no assignment.
func firstExpansion(raw string) (string, bool) {
	f, err := parse(": "+raw, syntax.LangBash)
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Negated || st.Background || len(call.Assigns) > 0 || len(call.Args) != 2 {
		return "", false
	}
	val, _, _, _, _ := quoteRemoval(call.Args[1])
	return val, true
}
