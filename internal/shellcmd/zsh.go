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

// zshNumericRange makes a problem of an input redirection that zsh reads as
// a numeric glob: "<N-M>" (either number may be missing) matches any
// number from N to M in a file name, so cat key<->.pem reads key1.pem,
// key2.pem, ... in zsh, where bash and sh read the file "-" into cat and
// write its output to .pem. The files zsh reads are in no word the bash
// grammar sees.
func (w *walker) zshNumericRange(r *syntax.Redirect, src string) {
	if r.Op != syntax.RdrIn || r.Word == nil || len(r.Word.Parts) != 1 {
		return
	}
	lit, ok := r.Word.Parts[0].(*syntax.Lit)
	if !ok || !numericRange(lit.Value) {
		return
	}
	e := r.Word.End()
	if !e.IsValid() || e.IsRecovered() || int(e.Offset()) >= len(src) || src[e.Offset()] != '>' {
		return
	}
	w.problem("zsh reads %s> as a glob matching numbers in file names, where bash reads a redirection", sourceOf(r, src))
}

// numericRange reports whether s is "N-M", each number optional.
func numericRange(s string) bool {
	lo, hi, ok := strings.Cut(s, "-")
	digits := func(d string) bool { return strings.Trim(d, "0123456789") == "" }
	return ok && digits(lo) && digits(hi)
}
