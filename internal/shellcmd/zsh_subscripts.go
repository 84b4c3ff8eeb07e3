package shellcmd

import "strings"

// zsh reads a subscript right after an unbraced parameter as the
// parameter's ($a[2] is the second element of a, "$a[-1]" the last),
// where bash and sh read $a, its first element, and then the text [2]:
// after a=(ls rm), "$a[2] x" runs rm x in zsh, which an IDE may run a
// terminal with, and ls[2] x to the bash grammar the line is read with.
// A line holding such a subscript is read a second time with each one
// braced, ${a[2]}, as zsh reads it (zshSubscripted), each command in that
// reading decided too. zsh names a program by its path in two more ways
// bash reads otherwise, =NAME first in a word and $commands[NAME]: that
// reading has NAME in their place, so "=rm x" is decided as rm x; and
// $argv[N] is the positional parameter ${N}. zsh reads every digit after
// an unbraced $ as the positional parameter's number ($11 is ${11}),
// where bash reads one ($11 is ${1}1).

// zshSubscripted returns src with each unbraced parameter followed by a
// subscript braced ($a[2] is ${a[2]}), outside single quotes and escapes,
// and false where src holds none; modifiers (zsh_modifiers.go), flags
// (zsh_flags.go) and BRACE_CCL lists (zsh_braceccl.go) are read too, and
// unread lists the modifiers and flags the bridge does not follow.
func zshSubscripted(src string) (out string, unread []string, changed bool) {
	if !strings.ContainsAny(src, "={$") {
		return "", nil, false
	}
	var b strings.Builder
	var q zshQuoting
	// A case pattern's ")" inside a command substitution is not told
	// from the one closing it: where zsh splits $=x is not known.
	unsure := strings.Contains(src, "case") && strings.Contains(src, "$(")
	for i := 0; i < len(src); i++ {
		c := src[i]
		inQuotes := q.quoted()
		switch {
		case c == '\\' && i+1 < len(src):
			b.WriteString(src[i : i+2])
			i++
			continue
		case strings.IndexByte("\"`$()", c) >= 0 && q.step(src, i) > i:
			b.WriteString(src[i : i+2])
			i++
			continue
		case c == '{' && !inQuotes && (i == 0 || src[i-1] != '$'):
			// zsh's BRACE_CCL list (zsh_braceccl.go).
			if text, end, ok := zshBraceClass(src, i); ok {
				b.WriteString(text)
				i = end
				changed = true
				continue
			}
		case c == '\'' && !inQuotes:
			// Single-quoted text, or a $'...' string whose escapes end
			// at the first quote no backslash escapes.
			ansi := i > 0 && src[i-1] == '$'
			j := i + 1
			for ; j < len(src) && src[j] != '\''; j++ {
				if ansi && src[j] == '\\' {
					j++
				}
			}
			end := min(j+1, len(src))
			if ansi && j < len(src) {
				// A $'...' string zsh decodes otherwise (zsh_ansic.go).
				if text, differs := zshDollarQuoted(src[i+1 : j]); differs {
					b.WriteString("'" + text + "'")
					i = end - 1
					changed = true
					continue
				}
			}
			b.WriteString(src[i:end])
			i = end - 1
			continue
		case c == '=' && (i == 0 || strings.IndexByte(" \t\n;&|(`", src[i-1]) >= 0) && nameEnd(src[i+1:]) > 0:
			// =NAME first in a word is the path of the program NAME.
			changed = true
			continue
		case c == '$' && i+1 < len(src) && src[i+1] == '{' && (i == 0 || src[i-1] != '$'):
			// ${=x}, ${~x}, ${^x}: the flags read as unbraced (zsh_flags.go).
			if start := zshFlagsEnd(src, i+2); start > i+2 && (nameEnd(src[start:]) > 0 || specialParamEnd(src, start) > start) {
				if end := braceEnd(src, i+1); end > 0 {
					flags := src[i+2 : start]
					if !zshFlagsRead(flags, unsure) {
						unread = append(unread, src[i:end+1])
					} else {
						b.WriteString(zshFlagged("${"+src[start:end+1], flags, inQuotes))
						i = end
						changed = true
						continue
					}
				}
			}
			if name, end, ok := zshSpecialElement(src, i+2); ok && end < len(src) && src[end] == '}' {
				b.WriteString(name)
				i = end
				changed = true
				continue
			}
			// ${name:mods}: zsh's modifiers where bash reads an offset.
			n := nameEnd(src[i+2:]) + i + 2
			if n > i+2 && n < len(src) && src[n] == ':' {
				op, end, count := zshModifiers(src, n)
				if count > 0 && end < len(src) && src[end] == '}' {
					if op == "" {
						unread = append(unread, src[i:end+1])
					} else {
						b.WriteString("${" + src[i+2:n] + op + "}")
						i = end
						changed = true
						continue
					}
				}
			}
		case c == '$' && (i == 0 || src[i-1] != '$'):
			// $=x, $~x, $^x: zsh's flags before the name (zsh_flags.go).
			start := zshFlagsEnd(src, i+1)
			flags := src[i+1 : start]
			n := nameEnd(src[start:]) + start
			if n == start && flags != "" {
				n = specialParamEnd(src, start)
			}
			if n == start && flags == "" {
				d := start
				for d < len(src) && isDigit(src[d]) {
					d++
				}
				if d-start > 1 {
					// zsh reads $11 as the eleventh positional
					// parameter, where bash reads ${1}1.
					b.WriteString("${" + src[start:d] + "}")
					i = d - 1
					changed = true
					continue
				}
			}
			if n == start {
				break
			}
			if name, end, ok := zshSpecialElement(src, start); ok {
				b.WriteString(name)
				i = end - 1
				changed = true
				continue
			}
			param, end := src[start:n], n-1
			if n < len(src) && src[n] == '[' {
				if e := subscriptEnd(src, n); e > 0 {
					param, end = src[start:e+1], e
				}
			}
			op, modEnd, count := "", end, 0
			if end+1 < len(src) && src[end+1] == ':' {
				op, modEnd, count = zshModifiers(src, end+1)
			}
			last := end
			if count > 0 {
				last = modEnd - 1
			}
			switch {
			case count > 0 && (op == "" || strings.Contains(param, "[")):
				unread = append(unread, src[i:last+1])
			case flags != "" && !zshFlagsRead(flags, unsure):
				unread = append(unread, src[i:last+1])
			case count > 0 || param != src[start:n] || flags != "":
				b.WriteString(zshFlagged("${"+param+op+"}", flags, inQuotes))
				i = last
				changed = true
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String(), unread, changed
}

// braceEnd returns the index of the "}" that closes the "{" at src[open],
// braces nested inside it counted, or -1 where none does.
func braceEnd(src string, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// subscriptEnd returns the index of the "]" that closes the "[" at
// src[open], brackets nested inside it counted, or -1 where none does on
// the same line.
func subscriptEnd(src string, open int) int { return closingOnLine(src, open, '[', ']') }

// closingOnLine returns the index of the closer that closes the opener at
// src[open], pairs nested inside it counted, or -1 where none does on the
// same line.
func closingOnLine(src string, open int, opener, closer byte) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case opener:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return i
			}
		case '\n':
			return -1
		}
	}
	return -1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// zshSpecialElement reads an element of one of zsh's special arrays at
// src[i:] and returns the text bash reads for it and the index after its
// "]": "commands[NAME]", zsh's table of program paths by name, is NAME
// ($commands[rm] is the path of rm, as =rm is), and "argv[N]", the
// positional parameters as an array, is ${N}.
func zshSpecialElement(src string, i int) (text string, end int, ok bool) {
	if rest, found := strings.CutPrefix(src[i:], "argv["); found {
		n := 0
		for n < len(rest) && isDigit(rest[n]) {
			n++
		}
		if n == 0 || rest[0] == '0' || n >= len(rest) || rest[n] != ']' {
			return "", i, false
		}
		return "${" + rest[:n] + "}", i + len("argv[") + n + 1, true
	}
	rest, found := strings.CutPrefix(src[i:], "commands[")
	if !found {
		return "", i, false
	}
	n := nameEnd(rest)
	for n < len(rest) && (rest[n] == '-' || rest[n] == '.' || isDigit(rest[n])) {
		n += 1 + nameEnd(rest[n+1:])
	}
	if n == 0 || n >= len(rest) || rest[n] != ']' {
		return "", i, false
	}
	return rest[:n], i + len("commands[") + n + 1, true
}
