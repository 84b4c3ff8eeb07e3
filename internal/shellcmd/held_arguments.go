package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An argument built of literals and expansions whose values the line shows
// in full (heldExpansions) is the words those values make: after V=rm,
// "command $V x", "env $V x", "exec $V x" and "eval \"$V x\"" run rm x, and
// "bash -c \"$V x\"" too. Such an argument was a word computed at run time,
// so the wrapper's command was only asked about, and a person's approval ran
// a program a rule refuses. The statement is read again with each
// combination of its arguments' values in their places, as the shell makes
// the words: a value in double quotes one word, an unquoted one split at
// blanks, neither read again for operators or quotes.

// heldArguments walks, for a simple command some of whose words after the
// command word are not static but made of literals and expansions the line
// shows in full, the statement with each combination of those words' values
// in their places (at most maxHeld).
func (w *walker) heldArguments(st *syntax.Stmt, call *syntax.CallExpr, head *syntax.Word, src string, depth int) {
	type held struct {
		start, end int
		values     []string
	}
	start, end := int(st.Pos().Offset()), int(st.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return
	}
	var words []held
	combos := 1
	for _, arg := range call.Args {
		if arg == head || evalWord(arg, src).Kind != Dynamic {
			continue
		}
		if from, to := int(arg.Pos().Offset()), int(arg.End().Offset()); from < start || to > end || from > to {
			return // a word the statement's text does not hold (a line the grammar recovered)
		}
		values, ok := w.heldExpansions(arg, src)
		if !ok || len(values) == 0 {
			return
		}
		if combos *= len(values); combos > maxHeld {
			return
		}
		split := UnquotedExpansion(arg)
		for i, v := range values {
			values[i] = heldWordText(v, split)
		}
		words = append(words, held{int(arg.Pos().Offset()), int(arg.End().Offset()), values})
	}
	if len(words) == 0 {
		return
	}
	texts := []string{src[start:end]}
	for i := len(words) - 1; i >= 0; i-- { // from the end, so offsets hold
		h := words[i]
		var next []string
		for _, t := range texts {
			for _, v := range h.values {
				next = append(next, t[:h.start-start]+v+t[h.end-start:])
			}
		}
		texts = next
	}
	for _, text := range texts {
		key := "$heldargs:" + text
		if w.expanding[key] {
			continue
		}
		if w.expanding == nil {
			w.expanding = map[string]bool{}
		}
		w.expanding[key] = true
		w.line(text, depth+1, currentShell)
		delete(w.expanding, key)
	}
}

// blankFields splits an unquoted expansion's value into the words the
// shell makes of it under the default IFS.
func blankFields(value string) []string {
	return strings.FieldsFunc(value, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
}

// UnquotedExpansion reports whether word holds an expansion or command
// substitution outside double quotes, whose value the shell splits into
// words (and matches against the files where it holds a pattern).
func UnquotedExpansion(word *syntax.Word) bool {
	for _, part := range word.Parts {
		switch part.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst:
			return true
		}
	}
	return false
}

// heldWordText returns shell text that makes the words value makes: one
// word, quoted, or where split, one word for each run of characters between
// blanks, its pattern characters left to match names as the shell matches
// an unquoted expansion's, every other character quoted.
func heldWordText(value string, split bool) string {
	if !split {
		return singleQuoted([]string{value})
	}
	var b strings.Builder
	for i, field := range blankFields(value) {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, r := range field {
			if !strings.ContainsRune("*?[]", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
