package shellcmd

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Held is what a line shows a variable holds where it is expanded.
type Held struct {
	// Values are the values it may hold, each whole: for an array, each
	// element. None when the line shows none.
	Values []string
	// Orders are an indexed array's elements in order, where the line
	// gives them all (a=(x rm) and nothing else sets a): one list for each
	// way the line may give them (a=($v) with v holding "x rm" or "rm"),
	// nil otherwise.
	Orders [][]string
	// Array reports that the variable may be an array whose elements the
	// line does not show in order.
	Array bool
}

// HeldValues returns a Held of values alone, for a caller that knows a
// variable's values but not whether it is an array: "${a[@]}" and "${a[*]}"
// of one holding more than one value, and any slice of them, are then not
// read, since their fields depend on the order of its elements.
func HeldValues(values []string) Held {
	return Held{Values: values, Array: len(values) > 1}
}

// ParamValues returns the values a parameter expansion p may give when the
// line shows them, known giving what the line shows each variable holds.
// The expansion is made as bash makes it (mvdan.cc/sh's expand, with bash's
// anchored replacements), once for each value of each variable it reads:
// a plain $NAME, ${NAME} or element ${a[i]} gives each value; ${a:-x},
// ${a#pattern}, ${a/pattern/x}, ${a/#x/y}, ${a^^}, ${a:offset:length} with
// arithmetic over numbers and variables the line shows, and an array's
// "${a[@]}", "${a[*]}" and "${a[@]:1:2}" (each field, joined by a blank, or by
// IFS where the line sets it). A variable the line shows no value of may be
// unset or hold anything: what the expansion gives whatever it holds is
// given ("${PWD:0:0}rm" is rm, "${u:-rm}" may be rm), nothing else. ok is
// false for an expansion that runs code or that the line does not show the
// meaning of: a command or process substitution, an indirection, a pattern
// that is an extended glob, ${a@op}, a translated $"...", the fields of an
// array whose elements the line does not show in order, or past maxRounds
// combinations of values.
func ParamValues(p *syntax.ParamExp, known func(name string) Held) (values []string, ok bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Names != 0 ||
		p.Exp != nil && (p.Slice != nil || p.Repl != nil || p.Exp.Op == syntax.OtherParamOps) {
		return nil, false
	}
	if !plainOperands(p) {
		return nil, false
	}
	held := known(p.Param.Value)
	if p.Exp == nil && p.Slice == nil && p.Repl == nil && !wholeArray(p) {
		return held.Values, true // each value as it is
	}
	mains, ok := mainVariables(p, held)
	if !ok {
		return nil, false
	}
	q := *p
	if !wholeArray(p) {
		q.Index = nil // each element is one of the values
		return expandEach(&q, mains, known)
	}
	values, ok = expandEach(&q, mains, known)
	if ok && joinsFields(p) {
		// Unquoted, ${a[*]} gives each element a field, as ${a[@]} does;
		// quoted, one field joined by IFS.
		if q.Index != nil {
			q.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "@"}}}
		} else {
			q.Param = &syntax.Lit{Value: "@"}
		}
		fields, fieldsOK := expandEach(&q, mains, known)
		for _, f := range fields {
			if !slices.Contains(values, f) {
				values = append(values, f)
			}
		}
		ok = fieldsOK
	}
	return values, ok
}

// wholeArray reports whether p expands every element of an array, ${a[@]}
// or ${a[*]}, or every positional parameter, $@ or $*.
func wholeArray(p *syntax.ParamExp) bool {
	if p.Index == nil {
		return p.Param.Value == "@" || p.Param.Value == "*" // the positional parameters
	}
	w, isWord := p.Index.(*syntax.Word)
	if !isWord {
		return false
	}
	s, _ := LiteralWord(w)
	return s == "@" || s == "*"
}

// joinsFields reports whether p is ${a[*]} or $*, which in double quotes
// joins the fields with IFS.
func joinsFields(p *syntax.ParamExp) bool {
	if p.Index == nil {
		return p.Param.Value == "*"
	}
	w, isWord := p.Index.(*syntax.Word)
	s, _ := LiteralWord(w)
	return isWord && s == "*"
}

// plainOperands reports whether the words of p's operators and subscript
// run nothing and mean what mvdan.cc/sh's expand makes of them: no command
// or process substitution, no indirection, no translated $"...", no
// extended glob, which an IDE's bash -i reads where ~/.bashrc sets extglob,
// and no bracket class such as [[:alpha:]], which matches by the locale.
func plainOperands(p *syntax.ParamExp) bool {
	plain := true
	syntax.Walk(p, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ExtGlob:
			plain = false
		case *syntax.ParamExp:
			if n != p && (n.Excl || n.Index != nil || n.Names != 0 || n.Width || n.Exp != nil && n.Exp.Op == syntax.OtherParamOps) {
				plain = false
			}
		case *syntax.DblQuoted:
			plain = plain && !n.Dollar
		case *syntax.Lit:
			// An extended glob; a character class, equivalence class or
			// collating symbol, which match by the locale.
			for _, op := range []string{"@(", "!(", "+(", "*(", "?(", "[:", "[=", "[."} {
				plain = plain && !strings.Contains(n.Value, op)
			}
		}
		return plain
	})
	return plain
}

// LiteralWord returns the text of w after quote removal when it holds
// nothing but literal text (nil is the empty word): no expansion, and no
// $'...' or $"..." whose text the shell decodes or translates.
func LiteralWord(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, isLit := q.(*syntax.Lit)
				if !isLit {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
