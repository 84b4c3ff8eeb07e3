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
// expansions the line shows in full giving the words of each of its values
// (one list for each way). changes is false when it leaves them as they are
// (set -e, set -o pipefail, set alone), known false when a word is computed
// at run time.
func (w *walker) setParameters(form []Word) (orders [][]string, changes, known bool) {
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
	orders = [][]string{{}}
	for ; i < len(form); i++ {
		changes = true
		fields, ok := [][]string{{form[i].Text}}, form[i].Kind == Static
		if !ok {
			fields, ok = w.heldFields(form[i])
		}
		if !ok {
			return nil, true, false
		}
		if orders = appendFields(orders, fields); orders == nil {
			return nil, true, false
		}
	}
	return orders, changes, true
}

// heldFields returns the words a word computed at run time makes where it
// is made of expansions the line shows in full (elementValues), one list
// for each of its values.
func (w *walker) heldFields(wd Word) ([][]string, bool) {
	if wd.Kind != Dynamic {
		return nil, false
	}
	src := "x " + wd.Text
	f, err := parse(src, syntax.LangBash)
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	call, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Args) != 2 {
		return nil, false
	}
	return w.elementValues(call.Args[1], src)
}

// maxPositional is how many positional parameters the line's values are
// held for, by number (${10} and on too, which zsh also reads as $10); a
// later one is not shown.
const maxPositional = 64

// positionalName reports whether name is a positional parameter's, 1 and
// on.
func positionalName(name string) bool {
	if name == "" || name[0] == '0' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isDigit(name[i]) {
			return false
		}
	}
	return true
}

// positional holds orders as the positional parameters, each a way the
// line may give them (known false: not known from here on).
func (w *walker) positional(orders [][]string, known bool) {
	if w.held == nil {
		w.held = map[string]heldValues{}
	}
	for name := range w.held {
		if positionalName(name) {
			delete(w.held, name)
		}
	}
	if !known {
		for _, name := range []string{"@", "*", "#"} {
			w.held[name] = heldValues{unknown: true, array: name != "#"}
		}
		return
	}
	all := heldValues{array: true, orders: orders}
	var counts heldValues
	for _, params := range orders {
		for n, p := range params {
			all.add(p)
			if n < maxPositional {
				nth := w.held[strconv.Itoa(n+1)]
				nth.add(p)
				w.held[strconv.Itoa(n+1)] = nth
			}
		}
		counts.add(strconv.Itoa(len(params)))
	}
	w.held["@"], w.held["*"], w.held["#"] = all, all, counts
}

// shiftParameters drops the first parameters as shift (form) does, where
// the line shows both them and its count.
func (w *walker) shiftParameters(form []Word) {
	held, ok := w.held["@"]
	if !ok {
		return // parameters the line does not show stay not shown
	}
	n := 1
	if len(form) > 1 {
		c, err := strconv.Atoi(form[1].Text)
		if form[1].Kind != Static || err != nil || c < 0 {
			held.orders = nil
		}
		n = c
	}
	if held.orders == nil {
		w.positional(nil, false)
		return
	}
	var shifted [][]string
	for _, params := range held.orders {
		if n > len(params) {
			shifted = append(shifted, params) // shift fails and changes nothing
			continue
		}
		shifted = append(shifted, slices.Clip(params[n:]))
	}
	w.positional(shifted, true)
}
