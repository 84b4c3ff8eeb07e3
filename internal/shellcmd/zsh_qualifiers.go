package shellcmd

import "strings"

// zsh runs code from a glob's qualifiers, the parenthesised list that
// ends a pattern word: "e:CODE:" (any punctuation for the colons, and the
// pairs {}, [], <>, ()) runs CODE for each file the pattern matches, and
// "+NAME" runs the function or command NAME. bash reads such a word as an
// extended glob or not at all, so "ls sub/*(e:'rm x':)" was asked about as
// a line the bridge cannot read, and ran rm once approved. The code of
// every such qualifier in a line, as written and with its quotes taken
// off, is walked as a line of its own (globQualifierCode), its commands
// decided as the line's.

// globQualifierCode walks the code src's glob qualifiers run.
func (w *walker) globQualifierCode(src string, depth int) {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\'':
			if j := strings.IndexByte(src[i+1:], '\''); j >= 0 {
				i += j + 1 // quoted: no qualifier
			}
			continue
		case '"':
			i = closingDoubleQuote(src, i)
			continue
		}
		if src[i] != '(' || i == 0 || strings.IndexByte(" \t\n;&|$=<>(`'\"\\", src[i-1]) >= 0 {
			continue // a subshell, substitution, array or function
		}
		end := closingOnLine(src, i, '(', ')')
		if end < 0 {
			continue
		}
		for _, code := range qualifierCode(src[i+1 : end]) {
			w.line(code, depth+1, currentShell)
			if bare := strings.NewReplacer("'", "", `"`, "").Replace(code); bare != code {
				w.line(bare, depth+1, currentShell)
			}
		}
	}
}

// closingDoubleQuote returns the index of the '"' that closes the one at
// src[open], or the last index where none does.
func closingDoubleQuote(src string, open int) int {
	for i := open + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(src) - 1
}

// qualifierPairs are the closing delimiters of qualifier arguments that
// open with a bracket; any other delimiter closes itself.
var qualifierPairs = map[byte]byte{'{': '}', '[': ']', '<': '>', '(': ')'}

// qualifierCode returns the code a glob qualifier list q (the text inside
// its parentheses) runs: each e qualifier's delimited argument and each
// + qualifier's name. The other qualifiers taking a delimited argument
// (u, g, f, P, the e of estring) have it stepped over.
func qualifierCode(q string) []string {
	var out []string
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == '+':
			j := i + 1
			for j < len(q) && (nameByte(q[j]) || q[j] == '-' || q[j] == ':') {
				j++
			}
			if j > i+1 {
				out = append(out, q[i+1:j])
			}
			i = j - 1
		case strings.IndexByte("eufgP", c) >= 0 && i+1 < len(q) && !nameByte(q[i+1]) && q[i+1] != ' ':
			open := q[i+1]
			closer, paired := qualifierPairs[open]
			if !paired {
				closer = open
			}
			end := strings.IndexByte(q[i+2:], closer)
			if end < 0 {
				end = len(q) - i - 2
			}
			if c == 'e' {
				out = append(out, q[i+2:i+2+end])
			}
			i += 2 + end
		}
	}
	return out
}
