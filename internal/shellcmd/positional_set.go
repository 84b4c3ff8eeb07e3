package shellcmd

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// set with words after its options makes them the positional parameters,
// and shift drops the first of them: after "set -- rm x", "$@" runs rm x,
// and after "set -- x rm; shift", $1 is rm. Where the line shows every word,
// the parameters are held as an array's elements are ("$@", "$*", $1, ...,
// $#); a word computed at run time, or a shift by a count not shown, leaves
// them not known.

// setParameters returns the positional parameters set (form, a set
// command) gives: the words after its options, "--" or "-", a word made of
// expansions the line shows in full giving the words its one value makes
// (heldFields). changes is false when it leaves them as they are (set -e,
// set -o pipefail, set alone), known false when a word is computed at run
// time.
func (w *walker) setParameters(form []Word) (params []string, changes, known bool) {
	i := 1
	for ; i < len(form); i++ {
		wd := form[i]
		if wd.Kind != Static {
			return nil, true, false
		}
		if wd.Text == "--" {
			i++
			changes = true
			break
		}
		if wd.Text == "-" {
			i++
			changes = i < len(form)
			break
		}
		if len(wd.Text) < 2 || wd.Text[0] != '-' && wd.Text[0] != '+' {
			break
		}
		if strings.ContainsRune(wd.Text[1:], 'o') {
			i++ // -o takes an option name
		}
	}
	for ; i < len(form); i++ {
		changes = true
		if form[i].Kind == Static {
			params = append(params, form[i].Text)
			continue
		}
		fields, ok := w.heldFields(form[i])
		if !ok {
			return nil, true, false
		}
		params = append(params, fields...)
	}
	return params, changes, true
}

// heldFields returns the words a word computed at run time makes where it
// is made of expansions the line shows in full and has one value: that
// value, split at blanks outside double quotes.
func (w *walker) heldFields(wd Word) ([]string, bool) {
	if wd.Kind != Dynamic {
		return nil, false
	}
	f, err := parse("x "+wd.Text, syntax.LangBash)
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	call, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Args) != 2 {
		return nil, false
	}
	values, ok := w.heldExpansions(call.Args[1], "x "+wd.Text)
	if !ok || len(values) != 1 {
		return nil, false
	}
	if !unquotedExpansion(call.Args[1]) {
		return values, true
	}
	return strings.FieldsFunc(values[0], func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }), true
}

// positional holds params as the positional parameters (known false: not
// known from here on).
func (w *walker) positional(params []string, known bool) {
	if w.held == nil {
		w.held = map[string]heldValues{}
	}
	for n := 1; n <= 9; n++ {
		delete(w.held, strconv.Itoa(n))
	}
	if !known {
		for _, name := range []string{"@", "*", "#"} {
			w.held[name] = heldValues{unknown: true, array: name != "#"}
		}
		return
	}
	all := heldValues{array: true, elems: slices.Clip(params)}
	for _, p := range params {
		if !slices.Contains(all.values, p) {
			all.values = append(all.values, p)
		}
	}
	w.held["@"], w.held["*"] = all, all
	w.held["#"] = heldValues{values: []string{strconv.Itoa(len(params))}}
	for n, p := range params {
		if n < 9 {
			w.held[strconv.Itoa(n+1)] = heldValues{values: []string{p}}
		}
	}
}

// shiftParameters drops the first parameters as shift (form) does, where
// the line shows both them and its count.
func (w *walker) shiftParameters(form []Word) {
	held, ok := w.held["@"]
	if !ok || held.elems == nil {
		if ok {
			w.positional(nil, false)
		}
		return
	}
	n := 1
	if len(form) > 1 {
		c, err := strconv.Atoi(form[1].Text)
		if form[1].Kind != Static || err != nil || c < 0 {
			w.positional(nil, false)
			return
		}
		n = c
	}
	if n > len(held.elems) {
		return // shift fails and changes nothing
	}
	w.positional(held.elems[n:], true)
}
