package shellcmd

import "strings"

// zsh reads "=", "~" and "^" between "$" and an unbraced parameter's name
// as flags for that expansion, where bash and sh read a "$" and then the
// text: $=x splits the value into words (inside double quotes too), $~x
// makes it a pattern matched against file names, and $^x joins the text
// around an array to each of its elements. So after x='x .env', "cat $=x"
// reads .env in zsh, which an IDE may run a terminal with, and after
// x='.e*', "cat $~x" does, where bash reads the file "$=x" or "$~x". The
// zsh reading (zshSubscripted) has such a parameter braced, ${x}, the word
// bash splits and matches against file names unquoted; $=x inside double
// quotes is read unquoted there, "${x}" closing and reopening the quotes.
// $^x, and $=x on a line whose quoting is not followed (a case inside a
// command substitution, zsh_quotes.go), are asked about.

// zshFlagsEnd returns the index after the run of zsh's expansion flags
// ("=", "~", "^", each possibly doubled) starting at src[i], i itself where
// none is there.
func zshFlagsEnd(src string, i int) int {
	for i < len(src) && strings.IndexByte("=~^", src[i]) >= 0 {
		i++
	}
	return i
}

// specialParamEnd returns the index after a positional or special
// parameter starting at src[i] that zsh reads after flags ($=1, $=*,
// $~@), i itself where none is there.
func specialParamEnd(src string, i int) int {
	if i >= len(src) {
		return i
	}
	if src[i] == '*' || src[i] == '@' {
		return i + 1
	}
	j := i
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	return j
}

// zshFlagsRead reports whether the zsh reading follows flags on a
// parameter: not "^" (each element joined to the text around it), nor "="
// where the line's quoting is not followed (unsure).
func zshFlagsRead(flags string, unsure bool) bool {
	if strings.Contains(flags, "^") {
		return false
	}
	return !(strings.Contains(flags, "=") && unsure)
}

// zshFlagged returns braced, the parameter's bash reading, as zsh reads it
// with flags: unquoted where "=" splits it inside double quotes.
func zshFlagged(braced, flags string, inQuotes bool) string {
	if inQuotes && strings.Contains(flags, "=") {
		return `"` + braced + `"`
	}
	return braced
}
