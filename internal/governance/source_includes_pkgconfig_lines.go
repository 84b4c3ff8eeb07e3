package governance

import "strings"

// pkg-config reads a .pc file in lines of its own making, not the file's
// "\n" lines: a carriage return ends a line as a newline does ("\r\n" is
// one end), a backslash before a line's end joins the next line to it with
// nothing between, so "Cfl\<newline>ags: -include ..." is a Cflags field,
// and a "#" a backslash does not escape starts a comment that ends only at
// the physical line's end, where a backslash joins nothing. Read in "\n"
// lines, a .pc file made with carriage returns, or with a field name split
// over two lines, or with a comment ending in a backslash, gave the bridge
// other fields than pkg-config reads: one whose Cflags has gcc read .env
// passed unread. pkgConfigLines reads the lines as pkg-config does.

// pkgConfigLines returns the logical lines of a .pc file's text, without
// their comments, as pkg-config reads them, or why it cannot tell them:
// where pkg-config's versions read them differently (a backslash before a
// carriage return, or before "\n\r", or between a word and the blanks
// that start the next line, which pkgconf drops and others keep; a lone
// carriage return in a comment).
func pkgConfigLines(text string) (lines []string, why string) {
	var cur strings.Builder
	comment := false
	end := func() {
		lines = append(lines, cur.String())
		cur.Reset()
		comment = false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\r' && comment && !strings.HasPrefix(text[i+1:], "\n"):
			return nil, "a comment holds a carriage return, which pkg-config's versions end it at or not"
		case c == '\n' || c == '\r':
			if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			end()
		case comment:
		case c == '#':
			comment = true
		case c != '\\' || i+1 == len(text):
			cur.WriteByte(c)
		case text[i+1] == '\r':
			return nil, "a backslash joins a line ending in a carriage return to the next, which pkg-config's versions read differently"
		case text[i+1] == '\n':
			i++
			next := text[i+1:]
			if strings.HasPrefix(next, "\r") {
				return nil, "a backslash joins a line to one ending in a carriage return, which pkg-config's versions read differently"
			}
			s := cur.String()
			if strings.HasPrefix(next, " ") || strings.HasPrefix(next, "\t") {
				if s != "" && s[len(s)-1] != ' ' && s[len(s)-1] != '\t' {
					return nil, "a backslash joins a word to a line starting with blanks, which pkg-config's versions keep or drop"
				}
			}
		default:
			// An escaped character is kept with its backslash ("\#" is
			// no comment), which the flag fields' check then refuses.
			i++
			cur.WriteByte('\\')
			cur.WriteByte(text[i])
		}
	}
	if cur.Len() > 0 || comment {
		end()
	}
	return lines, ""
}
