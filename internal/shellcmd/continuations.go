package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bash and dash remove a backslash-newline wherever a single quote, a
// quoted here-document or a comment does not hold it, before they read
// what it joins: "$\<newline>(rm x)" and the body line $\<newline>(rm x)
// are $(rm x), and $\<newline>'\x2emd' is $'\x2emd'. mvdan.cc/sh joins
// the words it parts, but takes a $ before the continuation for a
// character, so echo "$\<newline>(rm x)" was an echo of text and
// echo x > GOVERNANCE$\<newline>'.md' wrote a file of another name to it.
//
// A line holding a continuation is read a second time with every
// continuation removed but those inside single quotes, a quoted
// here-document's body and a comment, which the shells keep (the body's
// last line may end in one: removed, it would join the delimiter and run
// the document on over the lines after it). A line that parses but whose
// joined reading does not needs approval.

// keptContinuations returns the byte ranges of src where the shells keep a
// backslash-newline (single-quoted strings, quoted here-document bodies,
// comments), and whether src parses as bash.
func keptContinuations(src string) ([][2]int, bool) {
	f, err := parse(src, syntax.LangBash, syntax.KeepComments(true))
	if err != nil {
		return nil, false
	}
	var keep [][2]int
	add := func(n syntax.Node) {
		if n.Pos().IsValid() && n.End().IsValid() {
			keep = append(keep, [2]int{int(n.Pos().Offset()), int(n.End().Offset())})
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted, *syntax.Comment:
			add(n)
		case *syntax.Redirect:
			if n.Hdoc != nil && isQuoted(n.Word) {
				add(n.Hdoc)
			}
		}
		return true
	})
	return keep, true
}

// withoutContinuations returns src with each backslash-newline that is not
// itself escaped, nor inside one of the ranges keep, removed, and whether
// it removed any.
func withoutContinuations(src string, keep [][2]int) (string, bool) {
	if !strings.Contains(src, "\\\n") {
		return "", false
	}
	kept := func(i int) bool {
		for _, r := range keep {
			if i >= r[0] && i < r[1] {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) {
			if src[i+1] != '\n' || kept(i) {
				b.WriteByte(c)
				b.WriteByte(src[i+1])
			}
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), b.Len() != len(src)
}

// joinedParses reports whether a grammar of langs parses joined.
func joinedParses(joined string, langs dialects) bool {
	for _, lang := range langs {
		if _, err := parse(joined, lang); err == nil {
			return true
		}
	}
	return false
}
