package shellcmd

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// maxRounds bounds the combinations of values one expansion is made with.
const maxRounds = 64

// notShown stands for a value the line does not show. No shell variable
// holds a NUL, so what an expansion gives that holds one depends on that
// value and is not a value the line shows.
const notShown = "\x00\x00\x00\x00\x00\x00\x00\x00"

// unknownVariable is the values a variable the line shows nothing of is
// expanded with: unset, and set to a value the line does not show.
var unknownVariable = []expand.Variable{{}, stringVariable(notShown)}

// stringVariable returns a set scalar variable holding v.
func stringVariable(v string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: v}
}

// mainVariables returns the variables p's own parameter is expanded as, from
// what the line shows it holds (h): an array of its elements for ${a[@]} and
// ${a[*]} where the line gives them in order, else a scalar of each value
// (and unset too for ${a:-x} and ${a:=x}, as the line may not have set it
// where it is expanded), or unknownVariable where it shows none. ok is false for every element of
// an array the line does not show in order.
func mainVariables(p *syntax.ParamExp, h Held) (vars []expand.Variable, ok bool) {
	whole := wholeArray(p)
	switch {
	case whole && h.Orders != nil:
		for _, elems := range h.Orders {
			vars = append(vars, expand.Variable{Set: true, Kind: expand.Indexed, List: elems})
		}
		return vars, true
	case len(h.Values) == 0:
		return unknownVariable, true
	case whole && (h.Array || p.Slice != nil):
		return nil, false
	}
	for _, v := range h.Values {
		vars = append(vars, stringVariable(v))
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			// Where the line may not have set it yet, the default.
			vars = append(vars, expand.Variable{})
		}
	}
	return vars, true
}

// expandEach makes p once for each combination of the values of the
// variables it reads (its own as mains), and returns what each gives,
// leaving out what fails, as bash fails it, and what depends on a value
// the line does not show. ok is false past maxRounds combinations.
func expandEach(p *syntax.ParamExp, mains []expand.Variable, known func(string) Held) (values []string, ok bool) {
	env := &choiceEnv{main: p.Param.Value, mains: mains, known: known,
		counts: map[string]int{}, choice: map[string]int{}, options: map[string][]expand.Variable{}}
	cfg := &expand.Config{Env: env}
	word := &syntax.Word{Parts: []syntax.WordPart{p}}
	for round := 0; ; round++ {
		if round == maxRounds {
			return nil, false
		}
		v, err := expandParam(cfg, p, word, env)
		if err == nil && !strings.Contains(v, "\x00") && !slices.Contains(values, v) {
			values = append(values, v)
		}
		if !env.next() {
			return values, true
		}
	}
}

// expandParam makes p (word holds it alone) with the choices env makes.
// expand reads ${a/#x/y} and ${a/%x/y} as replacing a literal #x or %x,
// where bash anchors x at the start or end; those are made here.
func expandParam(cfg *expand.Config, p *syntax.ParamExp, word *syntax.Word, env *choiceEnv) (string, error) {
	anchor, pat := anchoredPattern(p)
	if anchor == 0 {
		return expand.Literal(cfg, word)
	}
	main := env.Get(p.Param.Value)
	if !main.IsSet() {
		return "", nil
	}
	patText, err := expand.Pattern(cfg, pat)
	if err != nil {
		return "", err
	}
	with, err := expand.Literal(cfg, p.Repl.With)
	if err != nil {
		return "", err
	}
	re, err := pattern.Regexp(patText, 0)
	if err != nil {
		return "", err
	}
	return anchoredReplace(main.String(), re, with, anchor)
}

// anchoredPattern returns '#' or '%' and the pattern after it for
// ${a/#x/y} and ${a/%x/y}, whose pattern starts with an unquoted # or %;
// 0 for any other expansion (${a//#x/y} replaces a literal #x).
func anchoredPattern(p *syntax.ParamExp) (anchor byte, pat *syntax.Word) {
	if p.Repl == nil || p.Repl.All || p.Repl.Orig == nil || len(p.Repl.Orig.Parts) == 0 {
		return 0, nil
	}
	first, isLit := p.Repl.Orig.Parts[0].(*syntax.Lit)
	if !isLit || first.Value == "" || first.Value[0] != '#' && first.Value[0] != '%' {
		return 0, nil
	}
	parts := slices.Clone(p.Repl.Orig.Parts)
	if rest := first.Value[1:]; rest == "" {
		parts = parts[1:]
	} else {
		parts[0] = &syntax.Lit{ValuePos: first.ValuePos, ValueEnd: first.ValueEnd, Value: rest}
	}
	return first.Value[0], &syntax.Word{Parts: parts}
}

// anchoredReplace replaces the longest prefix ('#') or suffix ('%') of v
// that the regular expression re matches whole with with, as bash's
// ${v/#re/with} and ${v/%re/with} do.
func anchoredReplace(v, re, with string, anchor byte) (string, error) {
	whole, err := regexp.Compile("^(?:" + re + ")$")
	if err != nil {
		return "", err
	}
	if anchor == '#' {
		for end := len(v); end >= 0; end-- {
			if end < len(v) && !utf8.RuneStart(v[end]) {
				continue // characters, as bash counts them in a UTF-8 locale
			}
			if whole.MatchString(v[:end]) {
				return with + v[end:], nil
			}
		}
		return v, nil
	}
	for start := 0; start <= len(v); start++ {
		if start < len(v) && !utf8.RuneStart(v[start]) {
			continue
		}
		if whole.MatchString(v[start:]) {
			return v[:start] + with, nil
		}
	}
	return v, nil
}

// choiceEnv is the environment of one round of expandEach: each variable
// holds one of its values, by the choices of the round, and next moves to
// the next combination of the variables read so far.
type choiceEnv struct {
	main    string
	mains   []expand.Variable
	known   func(string) Held
	order   []string       // the variables read, in the order first read
	counts  map[string]int // how many values each may hold
	choice  map[string]int // the value each holds this round
	options map[string][]expand.Variable
}

// values returns the variables name may be: its own for the expansion's
// parameter, an array of the elements in each order the line gives them,
// each value the line shows, or unknownVariable. IFS the line
// does not set holds the shells' default, as bash and dash take none from
// their environment.
func (e *choiceEnv) values(name string) []expand.Variable {
	if vs, ok := e.options[name]; ok {
		return vs
	}
	var vs []expand.Variable
	switch h := e.known(name); {
	case name == e.main:
		vs = e.mains
	case h.Orders != nil:
		// An array the line gives in order, the positional parameters
		// among them: "${x:-$*}" joins them as "$*" does.
		for _, elems := range h.Orders {
			vs = append(vs, expand.Variable{Set: true, Kind: expand.Indexed, List: elems})
		}
	case len(h.Values) > 0:
		for _, v := range h.Values {
			vs = append(vs, stringVariable(v))
		}
	case name == "IFS":
		vs = []expand.Variable{{}}
	default:
		vs = unknownVariable
	}
	e.options[name] = vs
	return vs
}

// Get returns the value name holds this round.
func (e *choiceEnv) Get(name string) expand.Variable {
	vs := e.values(name)
	if _, read := e.counts[name]; !read {
		e.counts[name] = len(vs)
		e.order = append(e.order, name)
	}
	return vs[e.choice[name]]
}

// Each lists no variables: an expansion ParamValues makes names the ones it
// reads.
func (e *choiceEnv) Each(func(name string, vr expand.Variable) bool) {}

// next moves to the next combination of values of the variables read so
// far, false after the last.
func (e *choiceEnv) next() bool {
	for i := len(e.order) - 1; i >= 0; i-- {
		name := e.order[i]
		if e.choice[name]++; e.choice[name] < e.counts[name] {
			return true
		}
		e.choice[name] = 0
	}
	return false
}
