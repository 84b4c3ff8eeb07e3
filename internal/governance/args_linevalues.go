package governance

import (
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A file name built at run time from variables that the line, or the
// request's environment, gives static values names what those values
// make: after x=.e, "cat ${x}nv" reads .env, and so does "cat < ${x}nv".
// Such a name was only asked about, as one known only when the line runs,
// so a person approving the line let a read or write a rule refuses
// happen. Each name the values make is decided as a name of the command
// (or the redirection's target) too, the stricter decision standing; the
// word itself still needs approval, since a value the line sets when it
// runs (read x, x=$(...)) is not among them.

// lineValues returns, by variable name, the static values the line a
// assigns each variable and the values the request's environment env
// sets.
func lineValues(a *shellcmd.Analysis, env []EnvVar) map[string][]string {
	vals := assignedValues(a)
	for _, v := range env {
		if vals == nil {
			vals = map[string][]string{}
		}
		if !slices.Contains(vals[v.Name], v.Value) && len(vals[v.Name]) < maxVarWords {
			vals[v.Name] = append(vals[v.Name], v.Value)
		}
	}
	return vals
}

// withValueNames returns args with, after each name computed at run time
// from plain expansions of variables vals holds values of, the names
// those values make (substitutedWords), decided as the command's own.
func withValueNames(args []argWord, vals map[string][]string) []argWord {
	out := args
	for _, w := range args {
		if w.word.Kind != shellcmd.Dynamic || w.protectOnly || !mayGiveValues(w.text, vals) {
			continue
		}
		for _, v := range substitutedWords(w.text, vals) {
			for _, word := range valueWords(w.text, v) {
				s := w
				s.word, s.text = word, word.Text
				s.at, s.pieces, s.backupOf = nil, nil, ""
				s.namedBy = w.text + ", with the values the line gives its variables"
				out = append(slices.Clip(out), s)
			}
		}
	}
	return out
}

// valueRedirects returns the redirections r makes with each name the
// values vals holds make of its target, when the target is computed at
// run time from plain expansions of those variables.
func valueRedirects(r shellcmd.Redirect, vals map[string][]string) []shellcmd.Redirect {
	if r.Target.Kind != shellcmd.Dynamic || !mayGiveValues(r.Target.Text, vals) {
		return nil
	}
	var out []shellcmd.Redirect
	for _, v := range substitutedWords(r.Target.Text, vals) {
		for _, word := range valueWords(r.Target.Text, v) {
			s := r
			s.Target = word
			out = append(out, s)
		}
	}
	return out
}

// valueWords returns the words a name v that values made of the word text
// is decided as: v, and where an expansion outside double quotes gave a
// pattern character, v as a pattern too, since bash matches such a word
// against the files (f=.e?v; cat $f reads .env), and as zsh may read
// its EXTENDED_GLOB operators (shellcmd.ZshExtendedWords). None for an empty v,
// which names no file.
func valueWords(text, v string) []shellcmd.Word {
	if v == "" {
		return nil
	}
	words := []shellcmd.Word{{Kind: shellcmd.Static, Text: v}}
	if !strings.ContainsAny(v, "*?[#~") || !unquotedExpansionIn(text) {
		return words
	}
	if strings.ContainsAny(v, "*?[") {
		words = append(words, shellcmd.Word{Kind: shellcmd.Glob, Text: v})
	}
	// zsh with GLOB_SUBST and EXTENDED_GLOB reads "#" and "~" in it too
	// (x=.en#v; cat $x reads .env).
	return append(words, shellcmd.ZshExtendedWords(v)...)
}

// unquotedExpansionIn reports whether the one word text holds an expansion
// or command substitution outside double quotes (shellcmd.UnquotedExpansion).
func unquotedExpansionIn(text string) bool {
	call := oneWordCall(text)
	return call != nil && shellcmd.UnquotedExpansion(call.Args[0])
}

// mayGiveValues reports whether substitutedWords may find values for the
// word text: the line gives variables values, or the word holds a ${...}
// whose operator gives one of its own (${u:-x}, ${X:0:0}). Every other
// word would be parsed for nothing, on each command a line runs.
func mayGiveValues(text string, vals map[string][]string) bool {
	return len(vals) > 0 || strings.Contains(text, "${")
}
