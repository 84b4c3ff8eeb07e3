package shellcmd

import "mvdan.cc/sh/v3/syntax"

// heldExpansions returns the values an assignment's word may have when
// each of its parameter expansions is a plain $NAME or ${NAME} of a
// variable whose values the line shows in full ("E='rm x'; EDITOR=$E"
// gives EDITOR "rm x"); ok is false for any other word, or past maxHeld
// values.
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
			held, known := w.held[plainParam(p)]
			if plainParam(p) == "" || !known || held.unknown || len(held.values) == 0 {
				return nil, false
			}
			return held.values, true
		}
		return nil, false
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

// plainParam is the name a plain $NAME or ${NAME} expands, or "" for any
// other parameter expansion.
func plainParam(p *syntax.ParamExp) string {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil ||
		p.Names != 0 || p.Exp != nil || p.NestedParam != nil || len(p.Modifiers) != 0 || p.Flags != nil {
		return ""
	}
	return p.Param.Value
}
