package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A line bash does not parse may still be one zsh runs, with syntax of its
// own in its words: "cat .e(n|x)v" and "cat (.env|x)" read .env through a
// glob group, "cat (#i).ENV" through a glob flag, "cat ${:-.env}" through a
// parameter with no name. Such a line needs approval, saying it does not
// parse; besides, the words zsh's own grammar reads in it (mvdan.cc/sh's
// zsh dialect) are files it may open (zshUnparsedWords): a word holding
// zsh's glob syntax, read as the patterns it may be (zshGlobPatterns), as
// a file it may read and write; any other, as written, as one it may read. A rule refusing one refuses the line, whatever the person
// approves.

// zshUnparsedVia names, to the person, how such a word opens its file.
const zshUnparsedVia = "zsh's reading of a line bash does not parse"

// zshUnparsedWords records the files zsh's reading of src may open.
func (w *walker) zshUnparsedWords(src string) {
	f, err := parse(src, syntax.LangZsh)
	if err != nil {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		word, ok := n.(*syntax.Word)
		if !ok {
			return true
		}
		text := sourceOf(word, src)
		if text == "" || strings.ContainsAny(text, "$`\"'\\") {
			return true // an expansion or quotes: its parts are walked
		}
		pats, zshOnly := zshGlobPatterns(text)
		for _, pat := range pats {
			w.addOpened(Redirect{Target: patternAsWord(pat), Read: true, Write: zshOnly, Dir: w.cur, FD: -1, Via: zshUnparsedVia})
		}
		return true
	})
}

// maxZshAlternatives bounds the patterns a word's glob groups are spelt
// out as; past it each group is read as "*".
const maxZshAlternatives = 16

// zshGlobPatterns returns patterns, in quoteRemoval's form, that together
// match every name zsh may expand the unquoted word text to: each glob
// group "(a|b)" as each of its alternatives, a group of flags ((#i), (#b),
// (#q...)) and a last group without "|" (qualifiers, (.)) as nothing,
// (#i)'s case left to the rules' folding, an approximate match ((#a1))
// as any name, any other group, "<N-M>", and
// zsh's "#", "~" and a "|" outside a group as "*". zshOnly says text held
// any of them.
func zshGlobPatterns(text string) (pats []string, zshOnly bool) {
	pats = []string{""}
	add := func(alts ...string) {
		next := make([]string, 0, len(pats)*len(alts))
		for _, p := range pats {
			for _, a := range alts {
				next = append(next, p+a)
			}
		}
		pats = next
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '(':
			end := closingOnLine(text, i, '(', ')')
			if end < 0 {
				end = len(text) - 1
			}
			if inner := text[i+1 : end]; strings.HasPrefix(inner, "#") && strings.Contains(inner, "a") {
				return []string{"*"}, true // (#a1): what follows, with errors
			}
			add(zshGroup(text[i+1:end], end == len(text)-1)...)
			i, zshOnly = end, true
		case '<':
			end := closingOnLine(text, i, '<', '>')
			if end < 0 {
				end = len(text) - 1
			}
			add("[0-9]*")
			i, zshOnly = end, true
		case ')', '>', '|', '#', '~':
			add("*")
			zshOnly = true
		default:
			add(string(c))
		}
		if len(pats) > maxZshAlternatives {
			pats = []string{zshGlobSuperset(text)}
			break
		}
	}
	return pats, zshOnly
}

// zshGroup returns what a glob group holding inner may match: its
// alternatives, nothing for flags and for a last group without "|" (zsh's
// qualifiers), or "*".
func zshGroup(inner string, last bool) []string {
	switch {
	case strings.HasPrefix(inner, "#") && (strings.Trim(inner[1:], "ilIbBmMse") == "" || strings.HasPrefix(inner, "#q")):
		return []string{""}
	case last && !strings.Contains(inner, "|"):
		return []string{""}
	case strings.ContainsAny(inner, "(<#~"):
		return []string{"*"}
	}
	return strings.Split(inner, "|")
}

// zshGlobSuperset is text with each glob group, numeric range and zsh
// operator read as "*".
func zshGlobSuperset(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '(', '<':
			closer := byte(')')
			if c == '<' {
				closer = '>'
			}
			end := closingOnLine(text, i, c, closer)
			if end < 0 {
				end = len(text) - 1
			}
			b.WriteByte('*')
			i = end
		case ')', '>', '|', '#', '~':
			b.WriteByte('*')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
