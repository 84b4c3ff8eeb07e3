package shellcmd

import (
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shell given -c takes the words after its command string as the
// string's positional parameters: $0 is the first, $1 the next, and "$@"
// all but the first. So bash -c '"$@"' _ rm x runs rm x, and sh -c
// 'eval "$1"' _ 'rm x' too, where the string alone shows only expansions
// computed at run time. Such a string is read a second time with each
// plain expansion of a positional parameter ($1, ${2}, $@, "$@", $*, "$*")
// replaced by the words the line gives, quoted so that they stay the words
// they expand to, and each other expansion of one (${1@P}, ${1:-x}, ${!1})
// made an expansion of a variable the reading first assigns that word.

// withParams returns text with its plain expansions of positional
// parameters replaced by params (params[0] is $0), and whether it replaced
// any. A parameter whose word is not static is left as it is.
func withParams(text string, params []Word) (string, bool) {
	if len(params) == 0 || !strings.Contains(text, "$") {
		return "", false
	}
	f, err := parse(text, syntax.LangBash)
	if err != nil {
		return "", false
	}
	type edit struct {
		start, end int
		with       string
	}
	var edits []edit
	var stack []syntax.Node
	prefix := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		p, ok := n.(*syntax.ParamExp)
		if !ok || p.Param == nil {
			return true
		}
		if !plainPositional(p) || !inArgument(stack[:len(stack)-1]) {
			// ${1@P}, $((a[$1])) through a variable holding the value,
			// which the reading of static values follows.
			if i, err := strconv.Atoi(p.Param.Value); err == nil && i < len(params) && params[i].Kind == Static {
				name := "ACP_BRIDGE_PARAM_" + p.Param.Value
				edits = append(edits, edit{int(p.Param.Pos().Offset()), int(p.Param.End().Offset()), name})
				if !strings.Contains(prefix, name+"=") {
					prefix += name + "=" + singleQuoted([]string{params[i].Text}) + "; "
				}
			}
			return true
		}
		vals, ok := paramValues(p.Param.Value, params)
		if !ok {
			return true
		}
		quote := quotedBy(stack[:len(stack)-1])
		start, end := int(p.Pos().Offset()), int(p.End().Offset())
		switch {
		case quote == nil:
			edits = append(edits, edit{start, end, quotedFields(vals)})
		case p.Param.Value == "@" && len(quote.Parts) == 1:
			// "$@" alone: each parameter one word.
			edits = append(edits, edit{int(quote.Pos().Offset()), int(quote.End().Offset()), singleQuoted(vals)})
		default:
			edits = append(edits, edit{start, end, escapeForDouble(strings.Join(vals, " "))})
		}
		return true
	})
	if len(edits) == 0 {
		return "", false
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	last := len(text) + 1
	for _, e := range edits {
		if e.end > last || e.start < 0 || e.end > len(text) {
			return "", false // overlapping: not read
		}
		text = text[:e.start] + e.with + text[e.end:]
		last = e.start
	}
	return prefix + text, true
}

// plainPositional reports whether p is a plain expansion of a positional
// parameter, @ or *: $1, ${12}, $@, with no operator.
func plainPositional(p *syntax.ParamExp) bool {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Names != 0 || p.Exp != nil || p.NestedParam != nil || p.Flags != nil || len(p.Modifiers) > 0 {
		return false
	}
	v := p.Param.Value
	if v == "@" || v == "*" {
		return true
	}
	_, err := strconv.Atoi(v)
	return err == nil
}

// paramValues returns the values the parameter name expands to, given the
// words after a -c string; ok is false when one is not static.
func paramValues(name string, params []Word) ([]string, bool) {
	var words []Word
	switch name {
	case "@", "*":
		words = rest(params, 1)
	default:
		i, _ := strconv.Atoi(name)
		if i < len(params) {
			words = params[i : i+1]
		}
	}
	var vals []string
	for _, wd := range words {
		if wd.Kind != Static {
			return nil, false
		}
		vals = append(vals, wd.Text)
	}
	return vals, true
}

// inArgument reports whether the innermost of the nodes around an
// expansion make it part of a word of a simple command, where the words
// it expands to can stand in its place, rather than an arithmetic
// expression, a subscript or another expansion's word.
func inArgument(around []syntax.Node) bool {
	i := len(around) - 1
	if i >= 0 {
		if _, ok := around[i].(*syntax.DblQuoted); ok {
			i--
		}
	}
	if i < 1 {
		return false
	}
	_, word := around[i].(*syntax.Word)
	_, call := around[i-1].(*syntax.CallExpr)
	return word && call
}

// quotedBy returns the double-quoted string the innermost of the nodes
// around an expansion puts it in, or nil when a command substitution (or
// nothing) holds it unquoted.
func quotedBy(around []syntax.Node) *syntax.DblQuoted {
	for i := len(around) - 1; i >= 0; i-- {
		switch n := around[i].(type) {
		case *syntax.DblQuoted:
			return n
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return nil
		}
	}
	return nil
}

// quotedFields returns vals as the shell splits an unquoted expansion of
// them at blanks, each field single-quoted.
func quotedFields(vals []string) string {
	var fields []string
	for _, v := range vals {
		fields = append(fields, strings.Fields(v)...)
	}
	return singleQuoted(fields)
}

// singleQuoted returns each of vals single-quoted, separated by spaces; no
// word at all when vals is empty.
func singleQuoted(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// escapeForDouble returns s as text inside double quotes.
func escapeForDouble(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return r.Replace(s)
}
