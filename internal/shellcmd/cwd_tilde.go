package shellcmd

import "strings"

// bash and zsh expand a word's leading "~+" to $PWD, the directory the
// command runs in, so "cat ~+/.env" reads the .env beside it; dash leaves
// it as written, a relative name whose first element is "~+". Such a word
// is known before the line runs (a PWD the request's env sets is asked
// about as a variable), so a command or redirection holding one is read
// both ways, each a command or redirection of its own: "./.env" where the
// command runs, and "~+/.env" as dash opens it.

// So is a word starting $PWD, ${PWD} or $(pwd) (or `pwd`), quoted or not,
// in every shell: "cat \"$PWD/.env\"" reads the .env where it runs. A PWD
// the line or the request sets is asked about as a variable.

// cwdTildeReadings returns the readings of wd when it starts "~+", $PWD
// or $(pwd) with plain text after it: "." and the rest, where the command
// runs, and for ~+ dash's (the word as written). ok is false for any
// other word.
func cwdTildeReadings(wd Word) (readings []Word, ok bool) {
	if wd.Kind != Dynamic {
		return nil, false
	}
	if rest, ok := pwdWordRest(wd.Text); ok {
		return []Word{{Kind: Static, Text: "." + rest}}, true
	}
	rest, found := strings.CutPrefix(wd.Text, "~+")
	if !found || !plainRest(rest) {
		return nil, false
	}
	return []Word{{Kind: Static, Text: "." + rest}, {Kind: Static, Text: wd.Text}}, true
}

// pwdPrefixes are the spellings of the directory a command runs in.
var pwdPrefixes = []string{`"${PWD}"`, `"$PWD"`, `"$(pwd)"`, "\"`pwd`\"", "${PWD}", "$PWD", "$(pwd)", "`pwd`"}

// pwdWordRest returns what follows the directory a word as written
// starts with ($PWD and its spellings), when that is plain text.
func pwdWordRest(text string) (string, bool) {
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' && strings.Count(text, `"`) == 2 {
		text = text[1 : len(text)-1] // "$PWD/x" quoted whole
	}
	for _, p := range pwdPrefixes {
		rest, ok := strings.CutPrefix(text, p)
		if !ok || p == "$PWD" && rest != "" && (isNameByte(rest[0]) || rest[0] == '[') {
			continue // $PWDX is another variable
		}
		if len(rest) >= 2 && rest[0] == '"' && rest[len(rest)-1] == '"' {
			rest = rest[1 : len(rest)-1] // $PWD"/x"
		}
		if plainRest(rest) {
			return rest, true
		}
	}
	return "", false
}

// plainRest reports whether rest, after a directory, is empty or a path
// below it with nothing the shell expands or quotes.
func plainRest(rest string) bool {
	return rest == "" || rest[0] == '/' && !strings.ContainsAny(rest, "$`\"'\\*?[{")
}

// isNameByte reports whether b may continue a variable name.
func isNameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// cwdTildeForms returns the word lists words gives, read once as bash and
// once as dash where a word starts "~+" (cwdTildeReadings), or words
// alone.
func cwdTildeForms(words []Word) [][]Word {
	bash, dash := words, words
	for i, wd := range words {
		r, ok := cwdTildeReadings(wd)
		if !ok {
			continue
		}
		if &bash[0] == &words[0] {
			bash, dash = append([]Word(nil), words...), append([]Word(nil), words...)
		}
		bash[i], dash[i] = r[0], r[len(r)-1]
	}
	if len(words) == 0 || &bash[0] == &words[0] {
		return [][]Word{words}
	}
	return [][]Word{bash, dash}
}

// CwdRelative returns the name a value as written gives relative to the
// directory the line is in, when it starts "~+" (bash expands it in an
// assignment's value as in a word), $PWD or $(pwd) with plain text after
// it: "HOME=$PWD/cfg" names ./cfg. ok is false for any other text.
func CwdRelative(text string) (string, bool) {
	if rest, ok := pwdWordRest(text); ok {
		return "." + rest, true
	}
	if rest, ok := strings.CutPrefix(text, "~+"); ok && plainRest(rest) {
		return "." + rest, true
	}
	return "", false
}
