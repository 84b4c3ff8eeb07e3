package shellcmd

import "strings"

// zsh reads a parenthesised list at the end of a glob as the glob's
// qualifiers, and two of them run code for every name the glob matches:
// e, followed by a delimiter, runs the string up to the closing delimiter
// ("(" "[" "{" "<" close with their pair, any other character with
// itself) as shell code, and + runs the command or function its name
// gives. So ls *(e:'rm x':) and echo *(+rm) run rm in zsh, which an IDE may
// run a terminal with, where bash reads an extended glob. The grammar keeps
// the list as a pattern's text.
//
// qualifierCode reads each such string of an extended glob's pattern as
// eval reads its words, quotes and backslashes as the shell removes them
// from the word before zsh reads the qualifiers: its commands are the
// line's. Every e and + of the text is read so, wherever it stands, which
// may read more than zsh runs but never less.

// qualifierCode walks the code the glob qualifiers of pattern run.
func (w *walker) qualifierCode(pattern string, depth int) {
	for _, code := range qualifierStrings(pattern) {
		if strings.TrimSpace(code) != "" {
			w.line("eval "+code, depth+1, dialectsOf("bash"))
		}
	}
}

// qualifierStrings returns the strings an e or + qualifier in pattern
// runs.
func qualifierStrings(pattern string) []string {
	var out []string
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '+' && i+1 < len(pattern) && identChar(pattern[i+1]):
			j := i + 1
			for j < len(pattern) && identChar(pattern[j]) {
				j++
			}
			out = append(out, pattern[i+1:j])
			i = j - 1
		case (c == 'e' || c == '+') && i+1 < len(pattern):
			open := pattern[i+1]
			end := strings.IndexByte(pattern[i+2:], closingDelim(open))
			if end < 0 {
				out = append(out, pattern[i+2:])
				return out
			}
			out = append(out, pattern[i+2:i+2+end])
			i += 2 + end
		}
	}
	return out
}

// closingDelim returns the character that closes a qualifier's string
// opened by open.
func closingDelim(open byte) byte {
	if i := strings.IndexByte("([{<", open); i >= 0 {
		return ")]}>"[i]
	}
	return open
}

// identChar reports whether c may be part of a shell name.
func identChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
