package shellcmd

import (
	"regexp"
	"slices"
	"strings"
)

// GNU sed's e command runs the rest of its line as a shell command
// ("sed '1e rm x' a.txt" runs rm x through /bin/sh), and the e flag of s
// runs the pattern space once substituted. Such a command is a command
// of the line, decided by the rules like any other, whatever rule allows
// sed: the text an e command gives is analysed as sh code, and a command
// taken from the pattern space (e alone, s///e) is known only when the
// line runs. The replacement of an s///e is analysed too, as the command
// it most often is ("s/.*/rm x/e").

// sedRuns returns the command lines a sed script's e commands give, and
// why a command it runs is not known until the line runs ("" when none
// is). ok is false when the script cannot be read (an address's regex or
// an s or y command does not end).
func sedRuns(script string) (cmds []string, unknown string, ok bool) {
	s := script
	for i := 0; i < len(s); {
		switch s[i] {
		case ' ', '\t', '\n', ';', '{', '}':
			i++
			continue
		case '#':
			i = lineEnd(s, i)
			continue
		}
		if i = sedSkipAddress(s, i); i < 0 {
			return nil, "", false
		}
		if i >= len(s) {
			break
		}
		switch c := s[i]; c {
		case '{', '}':
		case 'e':
			end := lineEnd(s, i)
			text := strings.TrimLeft(s[i+1:end], " \t")
			if text == "" {
				unknown = "sed's e command without a command runs the pattern space"
			} else {
				cmds = append(cmds, strings.ReplaceAll(text, "\\\n", "\n"))
			}
			i = end
		case 's', 'y':
			parts, next, ok := sedDelimited(s, i+1, 2)
			if !ok {
				return nil, "", false
			}
			i = next
			if c == 'y' {
				continue
			}
			flags := i
			for i < len(s) && !strings.ContainsRune(";\n}w", rune(s[i])) {
				i++
			}
			if strings.IndexByte(s[flags:i], 'e') >= 0 {
				unknown = "the e flag of sed's s command runs the pattern space"
				cmds = append(cmds, parts[1])
			}
			if i < len(s) && s[i] == 'w' {
				i = lineEnd(s, i)
			}
		case 'a', 'i', 'c', 'r', 'R', 'w', 'W', ':':
			i = lineEnd(s, i)
		case 'b', 't', 'T':
			for i++; i < len(s) && s[i] != ';' && s[i] != '\n'; i++ {
			}
		default:
			i++
		}
	}
	return cmds, unknown, true
}

// lineEnd returns the index of the newline that ends the line holding
// s[i] (len(s) at the end), a newline after a backslash continuing it.
func lineEnd(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\n':
			return i
		}
	}
	return len(s)
}

// sedSkipAddress returns the index after the address that starts at
// s[i] (line numbers, $, ranges, steps, /regex/ and \cregexc with their I
// and M flags, !, blanks), -1 when a regex does not end.
func sedSkipAddress(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c >= '0' && c <= '9' || strings.IndexByte("$,~+! \t", c) >= 0:
			i++
		case c == '/' || c == '\\':
			at := i // /regex/
			if c == '\\' {
				at++ // \cregexc
			}
			_, next, ok := sedDelimited(s, at, 1)
			if !ok {
				return -1
			}
			i = next
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// sedDelimited reads n parts of s ended by the delimiter s[at] (a
// backslash escaping the next byte), returning them, the index after the
// last delimiter and whether they all end.
func sedDelimited(s string, at, n int) (parts []string, next int, ok bool) {
	if at >= len(s) || s[at] == '\n' || s[at] == '\\' {
		return nil, 0, false
	}
	d := s[at]
	start := at + 1
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case d:
			parts = append(parts, s[start:i])
			if len(parts) == n {
				return parts, i + 1, true
			}
			start = i + 1
		}
	}
	return nil, 0, false
}

// awk runs a command through /bin/sh with system(cmd), print | cmd,
// printf | cmd and cmd | getline (gawk's |& too). A command given as one
// string literal there is analysed as sh code, its escapes read as awk
// reads them ("\162m x" is rm x); a system() of anything else runs a
// command known only when the line runs. A pipe from or to an expression
// other than a literal (print | c, c | getline) runs one too; the pipes
// are found in the program with its strings and regexes blanked
// (awkCode), so a regex's | is not one.

// awkString is an awk string literal, its text without the quotes.
const awkString = `"((?:[^"\\\n]|\\.)*)"`

var (
	awkSystemLiteral = regexp.MustCompile(`\bsystem\s*\(\s*` + awkString + `\s*\)`)
	awkSystemAny     = regexp.MustCompile(`\bsystem\s*\(`)
	awkPipeTo        = regexp.MustCompile(`\|&?\s*` + awkString)
	awkPipeFrom      = regexp.MustCompile(awkString + `\s*\|&?\s*getline`)
)

// awkRuns returns the command lines an awk program gives as literals, and
// why a command it runs is not known until the line runs ("" when none
// is). It can read any program (ok is always true).
func awkRuns(prog string) (cmds []string, unknown string, ok bool) {
	lits := awkSystemLiteral.FindAllStringSubmatch(prog, -1)
	if len(awkSystemAny.FindAllStringIndex(prog, -1)) > len(lits) {
		unknown = "awk's system() runs a command computed when the line runs"
	}
	code, ok := awkCode(prog)
	if !ok {
		return nil, "", false
	}
	if awkPipeComputed(code) {
		unknown = "an awk pipe runs a command computed when the line runs"
	}
	for _, re := range []*regexp.Regexp{awkPipeTo, awkPipeFrom} {
		lits = append(lits, re.FindAllStringSubmatch(prog, -1)...)
	}
	for _, m := range lits {
		if c := awkUnescape(m[1]); !slices.Contains(cmds, c) {
			cmds = append(cmds, c)
		}
	}
	return cmds, unknown, true
}

// awkCode returns prog with the text of its string literals and regex
// literals blanked (their delimiters kept: "" and //) and its comments
// dropped; ok is false when one does not end. A / starts a regex where
// a division cannot stand: after an operator, a bracket, a separator or
// at the start.
func awkCode(prog string) (string, bool) {
	var b strings.Builder
	last := byte(0) // the last byte of code outside literals, blanks aside
	for i := 0; i < len(prog); i++ {
		c := prog[i]
		switch {
		case c == '#':
			for i < len(prog) && prog[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
			last = '\n'
			continue
		case c == '"' || c == '/' && !awkOperand(last):
			j := i + 1
			for ; j < len(prog) && prog[j] != c; j++ {
				if prog[j] == '\\' {
					j++
				} else if prog[j] == '\n' {
					return "", false
				}
			}
			if j >= len(prog) {
				return "", false
			}
			b.WriteByte(c)
			b.WriteByte(c)
			i, last = j, c
			continue
		}
		b.WriteByte(c)
		if c != ' ' && c != '\t' {
			last = c
		}
	}
	return b.String(), true
}

// awkOperand reports whether a / after the byte c divides (c ends an
// operand: a name, a number, a closing bracket, a field's $ or a string)
// rather than starting a regex.
func awkOperand(c byte) bool {
	return c == '_' || c == ')' || c == ']' || c == '$' || c == '"' || c == '.' ||
		c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// awkPipeComputed reports whether the awk code (awkCode's) has a pipe
// whose command is not a string literal: print | c, or c | getline.
func awkPipeComputed(code string) bool {
	for i := 0; i < len(code); i++ {
		if code[i] != '|' {
			continue
		}
		if i+1 < len(code) && code[i+1] == '|' {
			i++ // ||
			continue
		}
		after := strings.TrimLeft(code[i+1:], "& \t")
		before := strings.TrimRight(code[:i], " \t")
		switch {
		case strings.HasPrefix(after, `""`):
		case strings.HasPrefix(after, "getline") && strings.HasSuffix(before, `""`):
		default:
			return true
		}
	}
	return false
}

// awkUnescape returns the text of an awk string literal's body as awk
// reads it: \" \\ \/ \a \b \f \n \r \t \v, \ddd octal, \xHH hex (gawk,
// mawk), and any other escaped byte as itself.
func awkUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case strings.IndexByte("abfnrtv", c) >= 0:
			b.WriteByte("\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", c)])
		case c >= '0' && c <= '7':
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(n))
			i = j - 1
		case c == 'x' && i+1 < len(s) && isHex(s[i+1]):
			n, j := 0, i+1
			for ; j < len(s) && j < i+3 && isHex(s[j]); j++ {
				n = n*16 + hexValue(s[j])
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hexValue returns the value of the hexadecimal digit c.
func hexValue(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}
