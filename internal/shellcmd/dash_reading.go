package shellcmd

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// posixReading walks src as sh (dash) reads it, where the POSIX grammar
// here rejects src and bash's grammar reads it. The grammar rejects bash's
// constructs as it meets them, while dash reads on past some of them and
// runs what follows: "&>" and "&>>" are "&" then ">" or ">>" to dash (the
// command before them runs in the background, the words after them are a
// command of their own), so "echo x &>/dev/null rm x" runs rm x in sh,
// where bash reads one echo; and an expansion whose operator dash does not
// know (${x:0:1}, ${x/a/b}, ${x^}, ${x@Q}, ${a[0]}, ${!x}) is a word dash
// reads to its closing brace and fails on only when it expands it, in the
// subshell or pipeline element that expands it, the line going on after
// it ("echo $'\'; (echo ${x:0:1}); rm x; echo \'x' #'" runs rm x in sh).
// Each such construct is rewritten in place to one the grammar reads as
// dash reads it, every offset kept (the walk slices src): "&" before ">"
// becomes ";", which ends the command as "&" does, and the unknown operator
// becomes "-", keeping the words inside the braces, and the substitutions
// they hold, for the walk. A construct dash rejects at the same place
// (a here-string, an extended glob, a C-style for, an array's "(") ends
// what dash runs there, and the commands before it are walked; any other
// construct the grammar rejects, which dash may read past, makes the line
// need approval.
func (w *walker) posixReading(src string, depth int) {
	text := src
	rewritten := false
	for range maxDashRewrites {
		if w.parses++; w.parses > maxParses {
			w.problem("the command line nests too many shell strings to analyse")
			return
		}
		f, err := parse(text, syntax.LangPOSIX)
		if err == nil {
			w.file(f, text, depth, syntax.LangPOSIX)
			return
		}
		next, ok, rejects, what := dashRewrite(text, err)
		if ok {
			text, rewritten = next, true
			continue
		}
		w.beforeError(text, depth, syntax.LangPOSIX)
		if !rejects || rewritten {
			w.problem("sh (dash) reads on past %s, which the POSIX grammar here rejects, so what it runs after it is not known", what)
		}
		return
	}
	w.beforeError(text, depth, syntax.LangPOSIX)
	w.problem("the command line holds more than %d bash constructs sh (dash) reads otherwise than bash", maxDashRewrites)
}

// maxDashRewrites bounds the constructs posixReading rewrites in one
// shell string; each costs a parse.
const maxDashRewrites = 64

// dashRewrite returns text with the construct err rejects rewritten to
// one the POSIX grammar reads as dash reads it (ok), or says whether dash
// rejects the line at that construct too (rejects), and names it (what).
func dashRewrite(text string, err error) (next string, ok, rejects bool, what string) {
	var le syntax.LangError
	var pe syntax.ParseError
	switch {
	case errors.As(err, &pe) && strings.HasPrefix(pe.Text, "not a valid parameter expansion operator"):
		// ${x~}, or ${!x*} once its "!" is rewritten: a word dash fails
		// on when it expands it.
		le = syntax.LangError{Pos: pe.Pos, Feature: "this expansion operator"}
	case !errors.As(err, &le):
		// A plain syntax error of the POSIX grammar is dash's too.
		return "", false, true, "a syntax error"
	}
	off := int(le.Pos.Offset())
	what = le.Feature
	if off < 0 || off >= len(text) {
		return "", false, false, what
	}
	at := func(b byte) string { return text[:off] + string(b) + text[off+1:] }
	switch le.Feature {
	case "`&>` redirects", "`&>>` redirects":
		if text[off] == '&' {
			return at(';'), true, false, what
		}
	case "slicing", "search and replace", "this expansion operator":
		// The operator's first character, never a quote, a brace or a
		// blank a rewrite would change the words around.
		if !strings.ContainsRune("}\"'`$\\ \t\n", rune(text[off])) {
			return at('-'), true, false, what
		}
	case "`${!foo}`":
		if strings.HasPrefix(text[off:], "${!") {
			// ${!x} ${!x*} ${!a[@]}: the name's first character, then
			// its operator or subscript is rewritten in turn.
			off += 2
			return at('_'), true, false, what
		}
	case "arrays":
		switch text[off] {
		case '[':
			// ${#a[0]}: the "#" goes first, as ${#a-0]} is no
			// expansion to the grammar.
			name := off
			for name > 0 && (text[name-1] == '_' || isAlnum(text[name-1])) {
				name--
			}
			if name >= 3 && text[name-3:name] == "${#" {
				off = name - 1
				return at('_'), true, false, what
			}
			return at('-'), true, false, what
		case '(':
			return "", false, true, what
		}
	case "herestrings", "extended globs", "c-style fors":
		return "", false, true, what
	default:
		// "the `declare` builtin" and the like, met at a "(" that dash
		// rejects after a command word as well.
		if text[off] == '(' {
			return "", false, true, what
		}
	}
	return "", false, false, what
}

// isAlnum reports whether b is an ASCII letter or digit.
func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}
