package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// heldExpansions returns the values an assignment's word may have when
// each of its parameter expansions gives values the line shows in full
// (ParamValues: "E='rm x'; EDITOR=$E" gives EDITOR "rm x", "${E:-rm}" rm
// too); ok is false for any other word, or past maxHeld values.
func (w *walker) heldExpansions(word *syntax.Word, src string) (values []string, ok bool) {
	values = []string{""}
	join := func(ends []string) bool {
		var next []string
		for _, v := range values {
			for _, e := range ends {
				next = append(next, v+e)
			}
		}
		values = next
		return len(values) <= maxHeld
	}
	literal := func(p syntax.WordPart) ([]string, bool) {
		v := evalWord(&syntax.Word{Parts: []syntax.WordPart{p}}, src)
		return []string{v.Text}, v.Kind == Static
	}
	var piece func(p syntax.WordPart, quoted bool) ([]string, bool)
	piece = func(p syntax.WordPart, quoted bool) ([]string, bool) {
		switch p := p.(type) {
		case *syntax.Lit:
			if quoted {
				return literal(&syntax.DblQuoted{Parts: []syntax.WordPart{p}})
			}
			return literal(p)
		case *syntax.SglQuoted:
			return literal(p)
		case *syntax.ParamExp:
			vs, ok := ParamValues(p, w.knownValues)
			if !ok || len(vs) == 0 {
				return nil, false
			}
			return vs, true
		case *syntax.CmdSubst:
			if runsPwd(p) {
				dirs := w.workingDirs()
				return dirs, len(dirs) > 0
			}
			if len(p.Stmts) == 1 {
				// Its output, the newlines at its end taken off.
				out, ok := w.pureOutput(p.Stmts[0], src)
				return []string{strings.TrimRight(out, "\n")}, ok
			}
		}
		return nil, false
	}
	if len(word.Parts) > 0 {
		// A leading ~+ is $PWD (bash, in a word and after an
		// assignment's =).
		if lit, isLit := word.Parts[0].(*syntax.Lit); isLit && (lit.Value == "~+" || strings.HasPrefix(lit.Value, "~+/")) {
			dirs := w.workingDirs()
			if len(dirs) == 0 {
				return nil, false
			}
			rest := &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: lit.Value[2:]}
			word = &syntax.Word{Parts: append([]syntax.WordPart{rest}, word.Parts[1:]...)}
			values = dirs
		}
	}
	for _, part := range word.Parts {
		parts, quoted := []syntax.WordPart{part}, false
		if dq, isDQ := part.(*syntax.DblQuoted); isDQ {
			parts, quoted = dq.Parts, true
		}
		for _, p := range parts {
			ends, ok := piece(p, quoted)
			if !ok || !join(ends) {
				return nil, false
			}
		}
	}
	return values, true
}

// knownValues returns what the line shows variable name holds so far: no
// values when it shows none or a value it sets when it runs.
func (w *walker) knownValues(name string) Held {
	held, known := w.held[name]
	if !known && name == "PWD" {
		return Held{Values: w.workingDirs()}
	}
	if !known || held.unknown {
		return Held{Array: held.array}
	}
	return Held{Values: held.values, Orders: held.orders, Array: held.array || len(held.values) > 1}
}
