package shellcmd

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// ParamValues returns the values a parameter expansion p may give when
// the line shows them, known giving the values the line shows a variable
// holds (none when it shows none): a plain $NAME, ${NAME} or array
// element ${a[i]} gives each of them; ${a:-x}, ${a-x}, ${a:=x} and ${a=x}
// also x (the value when a is unset, which a variable the line does not
// set may be); ${a:+x} and ${a+x} give x; ${a#x}, ${a%x} (and ## %%)
// remove a literal x from each, and ${a^^}, ${a,,}, ${a^}, ${a,} change
// each one's case, ${a:o:n} takes n characters from offset o of each (nothing
// at all when n is 0, whatever a holds: "${PWD:0:0}rm" is rm), and
// ${a/x/y} and ${a//x/y} replace a literal x with a literal y. ok is false
// for any other expansion, or an operator word or number that is not a
// literal.
func ParamValues(p *syntax.ParamExp, known func(name string) []string) (values []string, ok bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Names != 0 || p.Exp != nil && (p.Slice != nil || p.Repl != nil) {
		return nil, false
	}
	vs := known(p.Param.Value)
	switch {
	case p.Slice != nil:
		return sliceValues(p.Slice, vs)
	case p.Repl != nil:
		return replaceValues(p.Repl, vs)
	case p.Exp == nil:
		return vs, true
	}
	word, ok := LiteralWord(p.Exp.Word)
	if !ok {
		return nil, false
	}
	each := func(f func(string) string) []string {
		out := make([]string, 0, len(vs))
		for _, v := range vs {
			out = append(out, f(v))
		}
		return out
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return append(slices.Clone(vs), word), true
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return []string{word}, true
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return vs, true
	case syntax.RemSmallPrefix, syntax.RemLargePrefix:
		if strings.ContainsAny(word, "*?[") {
			return nil, false
		}
		return each(func(v string) string { return strings.TrimPrefix(v, word) }), true
	case syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		if strings.ContainsAny(word, "*?[") {
			return nil, false
		}
		return each(func(v string) string { return strings.TrimSuffix(v, word) }), true
	case syntax.UpperAll:
		return each(strings.ToUpper), word == ""
	case syntax.LowerAll:
		return each(strings.ToLower), word == ""
	case syntax.UpperFirst:
		return each(firstRune(unicode.ToUpper)), word == ""
	case syntax.LowerFirst:
		return each(firstRune(unicode.ToLower)), word == ""
	}
	return nil, false
}

// firstRune returns a function changing the first character of a string
// with f.
func firstRune(f func(rune) rune) func(string) string {
	return func(s string) string {
		r, n := utf8.DecodeRuneInString(s)
		if n == 0 {
			return s
		}
		return string(f(r)) + s[n:]
	}
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

// sliceValues returns what ${a:offset:length} gives of each of vs, for a
// non-negative literal offset and length: a length of 0 gives the empty
// string whatever a holds.
func sliceValues(sl *syntax.Slice, vs []string) ([]string, bool) {
	off, ok := literalNumber(sl.Offset)
	if !ok {
		return nil, false
	}
	length := -1
	if sl.Length != nil {
		if length, ok = literalNumber(sl.Length); !ok {
			return nil, false
		}
		if length == 0 {
			return []string{""}, true
		}
	}
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		r := []rune(v) // characters, as bash counts them in a UTF-8 locale
		if off >= len(r) {
			out = append(out, "")
			continue
		}
		r = r[off:]
		if length >= 0 && length < len(r) {
			r = r[:length]
		}
		out = append(out, string(r))
	}
	return out, true
}

// literalNumber returns the value of an arithmetic expression that is a
// non-negative decimal literal.
func literalNumber(x syntax.ArithmExpr) (int, bool) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return 0, false
	}
	s, ok := LiteralWord(w)
	if !ok || s == "" || len(s) > 6 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n, true
}

// replaceValues returns what ${a/x/y} (${a//x/y} with r.All) gives of each
// of vs, for a literal x that is no pattern and is not anchored with # or
// %, and a literal y.
func replaceValues(r *syntax.Replace, vs []string) ([]string, bool) {
	orig, ok := LiteralWord(r.Orig)
	if !ok || orig == "" || strings.ContainsAny(orig, "*?[") || strings.HasPrefix(orig, "#") || strings.HasPrefix(orig, "%") {
		return nil, false
	}
	with, ok := LiteralWord(r.With)
	if !ok {
		return nil, false
	}
	n := 1
	if r.All {
		n = -1
	}
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, strings.Replace(v, orig, with, n))
	}
	return out, true
}
