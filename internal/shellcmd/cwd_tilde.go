package shellcmd

import "strings"

// bash and zsh expand a word's leading "~+" to $PWD, the directory the
// command runs in, so "cat ~+/.env" reads the .env beside it; dash leaves
// it as written, a relative name whose first element is "~+". Such a word
// is known before the line runs (a PWD the request's env sets is asked
// about as a variable), so a command or redirection holding one is read
// both ways, each a command or redirection of its own: "./.env" where the
// command runs, and "~+/.env" as dash opens it.

// cwdTildeReadings returns the readings of wd when it starts "~+" with
// plain text after it: bash's ("." and the rest) and dash's (the word as
// written). ok is false for any other word.
func cwdTildeReadings(wd Word) (readings []Word, ok bool) {
	if wd.Kind != Dynamic {
		return nil, false
	}
	rest, found := strings.CutPrefix(wd.Text, "~+")
	if !found || rest != "" && rest[0] != '/' || strings.ContainsAny(rest, "$`\"'\\*?[{") {
		return nil, false
	}
	return []Word{{Kind: Static, Text: "." + rest}, {Kind: Static, Text: wd.Text}}, true
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
		bash[i], dash[i] = r[0], r[1]
	}
	if len(words) == 0 || &bash[0] == &words[0] {
		return [][]Word{words}
	}
	return [][]Word{bash, dash}
}
