package shellcmd

import "mvdan.cc/sh/v3/syntax"

// bash expands each operand of an arithmetic comparison in [[ ]] (-eq,
// -ne, -lt, -le, -gt, -ge) and evaluates the text it gives, quotes
// removed, as an arithmetic expression: the variables it names are
// evaluated in turn, and a command substitution in an array subscript
// anywhere in it runs. So [[ '1+a[$(rm x)]' -eq 1 ]] runs rm x, where the
// grammar reads the operand as quoted text, and where a word naming one
// element whole ('a[$(rm x)]', subscript in walk.go) was all that was read
// as code.

// testOperands reads the static operands of an arithmetic comparison in
// [[ ]] as the arithmetic bash evaluates: their subscripts' commands are
// the line's, and the line needs approval, since the quoted text is not
// the static text it seems; the names they hold are evaluations
// (evaluate.go).
func (w *walker) testOperands(t *syntax.BinaryTest, src string, depth int) {
	switch t.Op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
	default:
		return
	}
	where := sourceOf(t, src)
	for _, x := range []syntax.TestExpr{t.X, t.Y} {
		wd, ok := x.(*syntax.Word)
		if !ok {
			continue
		}
		val, _, _, _, why := quoteRemoval(wd)
		if why != "" {
			continue // its expansions are evaluated as such (arithWord)
		}
		w.arithText(val, where)
		if holdsSubstitution(val) {
			w.problem("bash evaluates the text of %s in %s as arithmetic, running the command substitutions in its subscripts, though the line quotes them", sourceOf(wd, src), where)
			w.line(": "+hereDocument(val), depth+1, dialectsOf("bash"))
		}
	}
}
