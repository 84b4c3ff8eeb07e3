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
	// The file zsh writes is decided as a redirection's too: a rule
	// refusing it refuses the line, whatever the person approves.
	w.addOpened(Redirect{Target: zshClobberTarget(r, lit, src), Write: true, Dir: w.cur, FD: descriptor(r, 1),
		Via: "zsh's " + r.Op.String() + "!"})
}

// zshClobberTarget returns the file zsh's >! (or >>!, &>!, >&!) r
// writes: the rest of its word after the "!", or the next word of the
// line where the "!" stands alone; a word known only when the line runs
// where that cannot be read.
func zshClobberTarget(r *syntax.Redirect, lit *syntax.Lit, src string) Word {
	unknown := Word{Kind: Dynamic, Text: sourceOf(r, src), Why: "the file zsh's " + r.Op.String() + "! writes"}
	if len(r.Word.Parts) > 1 || lit.Value != "!" {
		t := evalWord(r.Word, src)
		switch {
		case t.Kind == Static && strings.HasPrefix(t.Text, "!"):
			t.Text = t.Text[1:]
		case t.Kind == Glob && strings.HasPrefix(t.Text, `\!`):
			t.Text = t.Text[2:]
		default:
			return unknown
		}
		return t
	}
	e := r.End()
	if !e.IsValid() || e.IsRecovered() || int(e.Offset()) > len(src) {
		return unknown
	}
	rest := strings.TrimLeft(src[e.Offset():], " \t")
	f, err := parse(rest, syntax.LangBash, syntax.RecoverErrors(4))
	if err != nil || len(f.Stmts) == 0 {
		return unknown
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || call.Args[0].Pos().Offset() != 0 {
		return unknown
	}
	return evalWord(call.Args[0], rest)
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
	// The names zsh's pattern reaches are files the line may read or
	// write, as the command's words are: cp x keys/k<->.pem writes
	// keys/k1.pem.
	if pat, ok := numericRangeWord(src, int(r.OpPos.Offset()), int(e.Offset())); ok {
		w.addOpened(Redirect{Target: patternAsWord(pat), Read: true, Write: true, Dir: w.cur, FD: -1, Via: "zsh's numeric glob"})
	}
}

// numericRangeWord returns, as a pattern in quoteRemoval's form, the word
// zsh reads around a numeric glob whose "<" is at src[lt] and ">" at
// src[gt]: the word's text before and after, with one or more digits and
// anything after them in the glob's place. ok is false where the word
// holds a quote or an expansion.
func numericRangeWord(src string, lt, gt int) (string, bool) {
	const ends = " \t\n;&|()<>"
	start := lt
	for start > 0 && strings.IndexByte(ends, src[start-1]) < 0 {
		start--
	}
	end := gt + 1
	for end < len(src) && strings.IndexByte(ends, src[end]) < 0 {
		end++
	}
	before, after := src[start:lt], src[gt+1:end]
	if strings.ContainsAny(before+after, "'\"\\$`") {
		return "", false
	}
	return before + "[0-9]*" + after, true
}

// numericRange reports whether s is "N-M", each number optional.
func numericRange(s string) bool {
	lo, hi, ok := strings.Cut(s, "-")
	digits := func(d string) bool { return strings.Trim(d, "0123456789") == "" }
	return ok && digits(lo) && digits(hi)
}
