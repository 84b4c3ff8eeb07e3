package shellcmd

import (
	"strings"
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
// continuation removed. Where a quote or a comment held one, that reading
// differs from the shells' only inside text they do not run (a literal
// string, a quoted here-document's body, a comment), and each reading
// adds commands to the line's, never takes any away. A joined line that
// no grammar parses (a quoted here-document whose body ended in a
// backslash loses its end) is not read: the line as written is.

// withoutContinuations returns src with each backslash-newline that is not
// itself escaped removed, and whether it removed any.
func withoutContinuations(src string) (string, bool) {
	if !strings.Contains(src, "\\\n") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) {
			if src[i+1] != '\n' {
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
