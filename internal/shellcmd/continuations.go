package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bash and dash remove a backslash-newline wherever it is not quoted by a
// single quote, inside double quotes and an unquoted here-document's body
// too, before they read what it joins: "$\<newline>(rm x)" is "$(rm x)",
// which runs rm x. The grammar here reads the $ before the line
// continuation as a character, and the text after it as more characters,
// so echo "$\<newline>(rm x)" looked like an echo of text.

// continuations walks a word and a here-document's body that hold a line
// continuation the grammar left in them (inside double quotes or an
// expansion's word) a second time, as the shells read them once it is
// removed.
func (w *walker) continuations(n syntax.Node, src string, depth int) {
	switch n := n.(type) {
	case *syntax.Word:
		// A word's double-quoted text and its expansions' words
		// (${x:-$\<newline>(rm x)}) alike; a here-document's body is
		// read as one, below.
		if w.hereBodies[n] {
			return
		}
		if joined, ok := withoutContinuations(sourceOf(n, src)); ok {
			w.line(": "+joined, depth+1, dialectsOf("bash"))
		}
	case *syntax.Redirect:
		if n.Hdoc == nil {
			return
		}
		if w.hereBodies == nil {
			w.hereBodies = map[*syntax.Word]bool{}
		}
		w.hereBodies[n.Hdoc] = true // visited before the body
		if n.Op != syntax.Hdoc && n.Op != syntax.DashHdoc || isQuoted(n.Word) {
			return
		}
		if joined, ok := withoutContinuations(sourceOf(n.Hdoc, src)); ok {
			w.line(": "+hereDocument(joined), depth+1, dialectsOf("bash"))
		}
	}
}

// withoutContinuations returns text with each backslash-newline that is
// not itself escaped removed, and whether it removed any from text that
// holds a $ or a backquote.
func withoutContinuations(text string) (string, bool) {
	if !strings.Contains(text, "\\\n") || !strings.ContainsAny(text, "$`") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\\' && i+1 < len(text) {
			if text[i+1] == '\n' {
				i++
				continue
			}
			b.WriteByte(c)
			b.WriteByte(text[i+1])
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), b.Len() != len(text)
}
