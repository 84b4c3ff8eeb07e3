package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// zshClobber makes a problem of an output redirection whose target starts
// with an unquoted "!": zsh (which an IDE may run a terminal with) reads
// >! and >>! (and &>!, >&!) as >| and >>|, writing to what follows the
// "!", or to the next word when the "!" stands alone, where bash and sh
// write a file named "!" and pass the next word to the command. So
// echo pwned >! ../out/victim.txt overwrites a file outside the workspace
// that the bash grammar reads as an argument of echo.
func (w *walker) zshClobber(r *syntax.Redirect, src string) {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.DplOut:
	default:
		return
	}
	if r.Word == nil || len(r.Word.Parts) == 0 {
		return
	}
	lit, ok := r.Word.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(lit.Value, "!") {
		return
	}
	w.problem("zsh reads %s as a redirection that overwrites the word after the !, where bash writes a file named !", sourceOf(r, src))
}
