package shellcmd

import "strings"

// zsh applies the modifiers after an unbraced parameter, or after ':' in
// braces, to its value: after x=rm.c, "$x:r" is rm, "$x:s/c/d/" rm.d,
// "${x:u}" RM.C, where bash reads $x and then the text ":r", or, in
// braces, an offset. So "x=rm.c; $x:r x" runs rm x in zsh, which an IDE
// may run a terminal with, and "x=.env.b; cat $x:r" reads .env. The zsh
// reading of a line (zsh_subscripts.go) gives a modifier bash has an
// operator for as that operator (":r" is "%.*"), and says so of the others
// and of several in a row, which the bridge does not follow.

// zshModifierOps are the modifiers bash has an operator for, by letter.
var zshModifierOps = map[byte]string{
	'l': ",,",  // lower case
	'u': "^^",  // upper case
	'r': "%.*", // the extension removed
	'e': "##*.",
	't': "##*/", // the last path element
	'h': "%/*",  // the path without it
}

// zshModifierLetters are the letters zsh reads as a modifier after ':'.
const zshModifierLetters = "aAcehlpPqQrstuxfFwWg&"

// zshModifiers reads the modifiers at src[i:], where src[i] is ':'. It
// returns the bash operator that gives their value where there is one
// modifier bash spells (op, "" otherwise), the index after them, and how
// many it read.
func zshModifiers(src string, i int) (op string, end, n int) {
	end = i
	for end+1 < len(src) && src[end] == ':' && strings.IndexByte(zshModifierLetters, src[end+1]) >= 0 {
		j := end + 1
		c := src[j]
		global := false
		if c == 'g' || c == 'f' || c == 'F' || c == 'w' || c == 'W' {
			if j+1 >= len(src) {
				break
			}
			global = c == 'g'
			j++
			c = src[j]
		}
		j++
		switch c {
		case 's':
			from, to, after, ok := zshSubstitution(src, j)
			if !ok {
				return "", end, n
			}
			op = "/" + from + "/" + to
			if global {
				op = "/" + op
			}
			if strings.ContainsAny(from, "*?[\\/") || strings.ContainsAny(to, "\\/&") {
				op = "" // zsh reads them as text, bash as a pattern
			}
			j = after
		case 'h', 't':
			k := j
			for k < len(src) && isDigit(src[k]) {
				k++ // :h2, :t2 keep more elements
			}
			op = zshModifierOps[c]
			if k > j {
				op = ""
			}
			j = k
		default:
			op = zshModifierOps[c]
		}
		if global && c != 's' {
			op = ""
		}
		end = j
		n++
	}
	if n != 1 {
		op = ""
	}
	return op, end, n
}

// zshSubstitution reads ":s/from/to/" from src[i:], i at the delimiter:
// the text from, the text to (its closing delimiter may be missing at the
// end of the word) and the index after them.
func zshSubstitution(src string, i int) (from, to string, end int, ok bool) {
	if i >= len(src) {
		return "", "", i, false
	}
	d := src[i]
	rest := src[i+1:]
	k := strings.IndexByte(rest, d)
	if k < 0 {
		return "", "", i, false
	}
	from = rest[:k]
	rest = rest[k+1:]
	if k := strings.IndexByte(rest, d); k >= 0 && !strings.ContainsAny(rest[:k], " \t\n;&|()<>\"'`$") {
		return from, rest[:k], i + 1 + len(from) + 1 + k + 1, true
	}
	k = strings.IndexAny(rest, " \t\n;&|()<>\"'`$}")
	if k < 0 {
		k = len(rest)
	}
	return from, rest[:k], i + 1 + len(from) + 1 + k, true
}
