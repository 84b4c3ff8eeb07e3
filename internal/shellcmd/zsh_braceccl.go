package shellcmd

import (
	"sort"
	"strings"
)

// zsh's BRACE_CCL option makes braces that hold no comma and no ".." a
// list of the characters between them, each a word of its own ({ab} is a
// b, a-c a range), where bash and sh, and zsh without it, leave them as
// written. A setopt on the line, however it spells the option's name, or
// the ~/.zshrc the IDE's zsh -i reads sets it, so "setopt braceccl; cat
// .e{n}v" reads .env in zsh, which an IDE may run a terminal with. The zsh
// reading (zshSubscripted) has such braces as the list bash reads alike,
// .e{n}v as .env and x{ab} as x{a,b}, whether or not the line sets the
// option; git show HEAD@{1} is git show HEAD@1 there, as git show.

// zshBraceClass reads the braces opening at src[open] as BRACE_CCL reads
// them and returns bash's spelling of that list and the index of the
// closing "}"; ok is false where the braces hold nothing, a comma, "..",
// a quote, an expansion, a blank or a byte beyond ASCII, or come right
// before a redirection.
func zshBraceClass(src string, open int) (text string, end int, ok bool) {
	end = strings.IndexByte(src[open+1:], '}')
	if end <= 0 {
		return "", 0, false
	}
	end += open + 1
	inner := src[open+1 : end]
	if strings.Contains(inner, "..") || end+1 < len(src) && (src[end+1] == '<' || src[end+1] == '>') {
		// {fd}>x names the descriptor a redirection opens, in zsh too.
		return "", 0, false
	}
	for i := 0; i < len(inner); i++ {
		if inner[i] <= ' ' || inner[i] >= 0x7f || strings.IndexByte("'\"\\$`{,;&|<>()", inner[i]) >= 0 {
			return "", 0, false
		}
	}
	set := map[byte]bool{}
	for i := 0; i < len(inner); i++ {
		if i+2 < len(inner) && inner[i+1] == '-' && inner[i] <= inner[i+2] {
			for c := int(inner[i]); c <= int(inner[i+2]); c++ {
				set[byte(c)] = true
			}
			i += 2
			continue
		}
		set[inner[i]] = true
	}
	var members []string
	for c := range set {
		members = append(members, braceMember(c))
	}
	sort.Strings(members)
	if len(members) == 1 {
		return members[0], end, true
	}
	return "{" + strings.Join(members, ",") + "}", end, true
}

// braceMember spells the character c as a word's text: a pattern
// character as itself, since zsh matches the list's words against file
// names, anything else but a letter, digit, ".", "_", "-" or "/" escaped.
func braceMember(c byte) string {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("._-/*?[]", c) >= 0:
		return string(c)
	}
	return `\` + string(c)
}
