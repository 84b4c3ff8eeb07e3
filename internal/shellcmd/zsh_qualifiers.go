package shellcmd

import (
	"regexp"
	"strings"
)

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
	w.qualifierStringsCode(qualifierStrings(pattern), depth)
}

// qualifierStringsCode walks each string a glob qualifier runs as eval
// reads its words.
func (w *walker) qualifierStringsCode(codes []string, depth int) {
	for _, code := range codes {
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
			end := nameEndAt(pattern, i+1)
			out = append(out, pattern[i+1:end])
			i = end - 1
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

// nameEndAt returns the index past the shell name that starts at s[i], the
// command or function a "+" qualifier names.
func nameEndAt(s string, i int) int {
	for i < len(s) && identChar(s[i]) {
		i++
	}
	return i
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

// A value zsh expands as a pattern (${~x}, $~x, or any unquoted $x under
// GLOB_SUBST, which the person's ~/.zshrc may set) is a glob whose own
// qualifiers run: x='x*(e:rm x:)'; echo $~x runs rm x, though the line
// shows the qualifier only as quoted text. So the qualifiers a static
// value ends with are read as the line's code wherever the value is
// assigned (record, assign.go), as the value's command substitutions are.

// qualifierChars are the characters a list of zsh's glob qualifiers is
// made of outside the strings e, + and P take: text holding any other
// (a blank, most letters) is no such list.
const qualifierChars = "/.@=p*%rwxAIERWXsStfugdlamcLU^-MTNDnoOYF[],#q0123456789"

// trailingQualifiers returns the code the list of glob qualifiers a value
// ends with runs, after a pattern or name: where zsh reads a glob's
// qualifiers. ok is false when the value ends with no such list.
func trailingQualifiers(value string) (code []string, ok bool) {
	i := strings.IndexByte(value, '(')
	if i <= 0 || !strings.HasSuffix(value, ")") || i >= len(value)-1 {
		return nil, false
	}
	list := value[i+1 : len(value)-1]
	for j := 0; j < len(list); j++ {
		c := list[j]
		switch {
		case c == ':':
			return code, true // modifiers follow
		case c == '+' && j+1 < len(list) && identChar(list[j+1]):
			end := nameEndAt(list, j+1)
			code = append(code, list[j+1:end])
			j = end - 1
		case c == 'e' || c == '+' || c == 'P':
			if j+1 == len(list) {
				return nil, false
			}
			end := strings.IndexByte(list[j+2:], closingDelim(list[j+1]))
			if end < 0 {
				return nil, false
			}
			if c != 'P' {
				code = append(code, list[j+2:j+2+end])
			}
			j += 2 + end
		case strings.IndexByte(qualifierChars, c) < 0:
			return nil, false
		}
	}
	return code, true
}

// zsh reads a parenthesised list right after a word as its qualifiers
// even where the word holds no glob character (BARE_GLOB_QUAL, on by
// default): ls x(e:'rm x':) runs rm x, a line no grammar here parses. The
// parenthesised groups of such a line that are qualifier lists are read
// so (bareQualifiers), whatever else it needs approval for.

// parenGroup matches a parenthesised group holding no parenthesis.
var parenGroup = regexp.MustCompile(`\(([^()]*)\)`)

// bareQualifiers walks the code the qualifier lists among src's
// parenthesised groups run.
func (w *walker) bareQualifiers(src string, depth int) {
	for _, m := range parenGroup.FindAllStringSubmatch(src, -1) {
		if code, ok := trailingQualifiers("x(" + m[1] + ")"); ok {
			w.qualifierStringsCode(code, depth)
		}
	}
}
