package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxHereDocPairs bounds the here-documents times substitutions of one
// line substHereDoc compares.
const maxHereDocPairs = 1 << 20

// substHereDoc reports a here-document opened inside a command
// substitution (`...` or $(...)) that ends before the document's text
// begins, on the line of the here-document's operator:
// "echo `cat <<EOF`" and, for dash, "echo $(cat <<EOF)". bash and dash end
// the document there, empty, and run the lines after it as commands of the
// outer line, while mvdan.cc/sh reads those lines as the document's text,
// so the commands they hold are never decided. It returns the
// substitution's text. A substitution closed on a later line ("$(cat
// <<'EOF'", the text, "EOF", ")") is read alike by all of them.
func substHereDoc(f *syntax.File, src string) (string, bool) {
	if !strings.Contains(src, "<<") {
		return "", false
	}
	var substs []*syntax.CmdSubst
	var docs []*syntax.Redirect
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			substs = append(substs, n)
		case *syntax.Redirect:
			if n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc {
				docs = append(docs, n)
			}
		}
		return true
	})
	if len(docs) > 0 && len(docs)*len(substs) > maxHereDocPairs {
		return "the line's substitutions", true // too many to compare: the line needs approval
	}
	for _, r := range docs {
		for _, cs := range substs {
			inside := r.OpPos.After(cs.Left) && cs.Right.After(r.OpPos)
			if inside && (cs.Right.Line() == r.OpPos.Line() || r.Hdoc == nil || r.Hdoc.Pos().After(cs.Right)) {
				return sourceOf(cs, src), true
			}
		}
	}
	return "", false
}

// hereDocProblems records the here-documents and backquote substitutions
// of f that bash and dash end elsewhere than the reading here does
// (substHereDoc, backquoteEnds, hereDocEnds): the text between is
// commands to the shell, so the line needs approval.
func (w *walker) hereDocProblems(f *syntax.File, src string) {
	if s, ok := substHereDoc(f, src); ok {
		w.problem("%s opens a here-document inside a substitution that ends on the same line: bash and sh end the document there and run the lines after it, which this reading takes for its text", s)
	}
	if s, ok := backquoteEnds(f, src); ok {
		w.problem("%s ends elsewhere for bash and sh than for this reading (a backquote after \\\\, or backquotes inside backquotes), so text it takes for the substitution's may run as commands of the line", s)
	}
	if d, ok := hereDocEnds(f, src); ok {
		w.problem("the here-document ended by %s ends elsewhere for bash and sh than for this reading (a backslash ending a line of it, an expansion left open in it, a line starting with the delimiter and holding a \")\" inside a substitution), so lines it takes for text may run as commands", d)
	}
}
