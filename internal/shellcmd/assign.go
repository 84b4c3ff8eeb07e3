package shellcmd

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// loopAssign records the values a for or select loop gives its variable:
// each word of a static list, else a value known only at run time.
func (w *walker) loopAssign(it *syntax.WordIter, src string, depth int) {
	if !it.InPos.IsValid() {
		w.assign(Assignment{Name: it.Name.Value}, depth) // the positional parameters
		return
	}
	for _, item := range it.Items {
		fs, ok := fields(item, src)
		if !ok {
			w.assign(Assignment{Name: it.Name.Value}, depth)
		}
		for _, f := range fs {
			switch f.Kind {
			case Static:
				w.assign(Assignment{Name: it.Name.Value, Value: f.Text, Static: true}, depth)
			case Glob:
				// Each name the pattern matches when the loop runs: the
				// pattern as the value, which a reader expands where the
				// line runs as it expands a value holding one (f='*.md';
				// cat $f), and a value not known, for names made later.
				w.assign(Assignment{Name: it.Name.Value, Value: f.Text, Static: true}, depth)
				w.assign(Assignment{Name: it.Name.Value}, depth)
			default:
				w.assign(Assignment{Name: it.Name.Value}, depth)
			}
		}
	}
}

// subscriptCode matches a word that names an array element whose
// subscript holds a command substitution.
var subscriptCode = regexp.MustCompile("^[A-Za-z_][A-Za-z0-9_]*\\[.*(\\$\\(|`|\\$\\{[ \t\n|])")

// innerSubscriptCode matches text holding, after its start, an array
// element whose subscript holds a command substitution: an arithmetic
// expression such as 1+a[$(cmd)].
var innerSubscriptCode = regexp.MustCompile("[^A-Za-z0-9_][A-Za-z_][A-Za-z0-9_]*\\[.*(\\$\\(|`|\\$\\{[ \t\n|])")

// holdsSubstitution reports whether s holds a command substitution: $(...),
// backquotes, or bash 5.3's ${ cmd;} and ${|cmd;}.
func holdsSubstitution(s string) bool {
	return strings.Contains(s, "$(") || strings.Contains(s, "`") || strings.Contains(s, "${ ") ||
		strings.Contains(s, "${\t") || strings.Contains(s, "${\n") || strings.Contains(s, "${|")
}

// assignableArg reports whether bash may read arg, a word of a command
// before its command word, as an assignment: its text as written, quotes
// and backslashes included, reads as one (assignmentWord). 'A='x, "A"=x
// and A\=x are the command "A=x", not an assignment; A="x y" and
// a["k"]=v are assignments.
func assignableArg(arg *syntax.Word, src string) bool {
	start, end := int(arg.Pos().Offset()), int(arg.End().Offset())
	if start < 0 || end > len(src) || start >= end {
		return false
	}
	return assignmentWord(src[start:end])
}

// assignmentWord reports whether s reads as a bash assignment: NAME=v,
// NAME+=v or NAME[i]=v.
func assignmentWord(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	name := s[:eq]
	end := nameEnd(name)
	if end == 0 {
		return false
	}
	rest := name[end:]
	return rest == "" || rest == "+" || strings.HasPrefix(rest, "[") && (strings.HasSuffix(rest, "]") || strings.HasSuffix(rest, "]+"))
}

// nameEnd returns the length of the shell name s starts with.
func nameEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return i
		}
	}
	return len(s)
}

// decl handles declare, export, local, readonly, typeset and nameref.
func (w *walker) decl(d *syntax.DeclClause, src string, depth int) {
	forms := []Word{{Kind: Static, Text: d.Variant.Value}}
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			fs, _ := fields(as.Value, src)
			forms = append(forms, fs...)
			for _, f := range fs {
				if f.Kind == Static {
					w.elementSubscript(f.Text) // declare 'a[i]=v'
				}
				if f.Kind != Dynamic && assignmentWord(f.Text) {
					name, value, _ := strings.Cut(f.Text, "=")
					w.assign(Assignment{Name: strings.TrimSuffix(name[:nameEnd(name)], "+"), Value: value, Static: f.Kind == Static,
						Append: strings.HasSuffix(name[:nameEnd(name)], "+")}, depth)
				} else if f.Kind == Dynamic {
					// declare "$x": the name and value are not known.
					w.assign(Assignment{Name: f.Text}, depth)
				}
			}
			continue
		}
		w.assignNode(as, src, depth)
		forms = append(forms, Word{Kind: Static, Text: sourceOf(as, src)})
	}
	w.add(&Command{Source: sourceOf(d, src), Forms: [][]Word{forms}}, depth)
}

// assignNode records one parsed assignment.
func (w *walker) assignNode(as *syntax.Assign, src string, depth int) {
	if as.Name == nil {
		return
	}
	a := Assignment{Name: as.Name.Value, Append: as.Append}
	if _, held := w.held[a.Name]; held && as.Naked && as.Value == nil && as.Array == nil {
		return // readonly V, export V: the value it held stays
	}
	switch {
	case as.Array != nil:
		// Each element is a value the variable may give: in BASH_CMDS
		// and BASH_ALIASES a name's file or alias text
		// (command_tables.go), in any array what "${a[@]}" and
		// "${a[i]}" expand to.
		prev, before := w.held[a.Name]
		orders := [][]string{{}}
		for _, el := range as.Array.Elems {
			if el.Value == nil {
				continue
			}
			fields, ok := w.elementValues(el.Value, src)
			for _, fs := range fields {
				for _, v := range fs {
					w.assign(Assignment{Name: a.Name, Value: v, Static: true}, depth)
				}
			}
			if !ok {
				w.assign(Assignment{Name: a.Name}, depth) // a value not known
			}
			if !ok || el.Index != nil {
				orders = nil
			} else if orders != nil {
				orders = appendFields(orders, fields)
			}
		}
		if as.Append {
			prev.orders = nil // the elements it held come first, in an order not kept
		}
		w.arrayElements(a.Name, orders, prev, before)
		a.Dir = w.cur
		w.record(a, depth) // the variable is set, as any array is
		return
	case as.Value == nil:
		a.Static = true
	default:
		v := evalWord(as.Value, src)
		a.Value, a.Static = v.Text, v.Kind == Static
		if v.Kind == Glob {
			// No pattern is matched in an assignment: F=.e?v sets F to
			// the text.
			a.Value, a.Static = Unescape(v.Text), true
		}
		if !a.Static && !a.Append {
			// A value built from variables the line gives in full is
			// each of their values (EDITOR=$E after E='rm x', V=${a[0]}
			// after a=(rm)), as the line giving it each would be.
			if values, ok := w.heldExpansions(as.Value, src); ok {
				w.record(a, depth)
				for _, hv := range values {
					w.assign(Assignment{Name: a.Name, Value: hv, Static: true}, depth)
				}
				return
			}
		}
	}
	w.assign(a, depth)
}

// elementValues returns the words a word makes as an array element or a
// command's argument, one list for each value it may have: its text where
// static, or the values of expansions the line shows in full
// (heldExpansions), an unquoted one split at blanks into several words (or
// none). ok is false when they are not known.
func (w *walker) elementValues(word *syntax.Word, src string) (fields [][]string, ok bool) {
	if v := evalWord(word, src); v.Kind == Static {
		return [][]string{{v.Text}}, true
	}
	held, ok := w.heldExpansions(word, src)
	if !ok || len(held) == 0 {
		return nil, false
	}
	split := UnquotedExpansion(word)
	for _, v := range held {
		if !split {
			fields = append(fields, []string{v})
			continue
		}
		fields = append(fields, blankFields(v))
	}
	return fields, true
}

// appendFields returns each of orders followed by each of fields (every
// way the words so far and the next word's words may follow each other),
// nil past maxHeld ways.
func appendFields(orders, fields [][]string) [][]string {
	if len(orders)*len(fields) > maxHeld {
		return nil
	}
	var out [][]string
	for _, o := range orders {
		for _, f := range fields {
			out = append(out, append(slices.Clip(o), f...))
		}
	}
	return out
}

// assign records an assignment. A static value that holds a command
// substitution runs it wherever bash evaluates the value again
// (arithmetic, ${x@P}, an array subscript), so it is analysed as code.
// NAME+=value adds to what the variable held: each value the line gave it
// before, joined with this one, is recorded as a value it may hold ("M=.e;
// M+=nv" gives M .env), and so is a value not known when the line may not
// show what it held.
func (w *walker) assign(a Assignment, depth int) {
	if !a.Dir.Moved() {
		a.Dir = w.cur
	}
	if t, ok := tiedAssignment(a); ok {
		w.assign(t, depth)
	}
	if a.Name == "options" {
		// zsh's options array: options=(extendedglob on) sets the option
		// (zsh_extendedglob.go), however the line assigns it.
		w.extendedGlob = true
	}
	if a.Name == "ARGV0" && a.Static && !slices.Contains(w.argv0, a.Value) {
		w.argv0 = append(w.argv0, a.Value)
	}
	held := w.held[a.Name]
	held.orders = nil // an array's elements in order only while nothing else sets it
	switch {
	case !a.Static:
		held.unknown = true
	case !a.Append:
		held.add(a.Value)
	default:
		for _, v := range held.values {
			held.add(v + a.Value)
		}
	}
	if w.held == nil {
		w.held = map[string]heldValues{}
	}
	w.held[a.Name] = held
	w.commandTable(a, held, depth)
	w.record(a, depth)
	if !a.Append {
		return
	}
	if held.unknown || len(held.values) == 0 {
		w.record(Assignment{Name: a.Name, Dir: a.Dir}, depth)
	}
	if a.Static {
		for _, v := range held.values {
			if strings.HasSuffix(v, a.Value) {
				w.record(Assignment{Name: a.Name, Value: v, Static: true, Dir: a.Dir}, depth)
			}
		}
	}
}

// heldValues are the values the line gives a variable, as far as it shows
// them: at most maxHeld, past which, or after a value computed at run
// time, what it holds is not known.
type heldValues struct {
	values  []string
	unknown bool
	// array: the variable may be an array; orders are its elements in
	// order (one list for each way the line may give them) where one
	// a=(...) is all that sets it.
	array  bool
	orders [][]string
}

// arrayElements marks name an array after an a=(...) or mapfile whose
// elements are orders (nil where one is computed or given an index). Where
// the line set the variable before (prev, before), what it held then is
// kept among them as another way the line may give it, as the line may
// not have run the assignment (a branch not taken), and only where that
// too was an array whose order the line shows.
func (w *walker) arrayElements(name string, orders [][]string, prev heldValues, before bool) {
	held := w.held[name]
	held.array = true
	switch {
	case held.unknown || orders == nil:
		orders = nil
	case before && prev.orders == nil:
		orders = nil
	case before:
		orders = append(slices.Clip(prev.orders), orders...)
		if len(orders) > maxHeld {
			orders = nil
		}
	}
	held.orders = orders
	if w.held == nil {
		w.held = map[string]heldValues{}
	}
	w.held[name] = held
}

// maxHeld bounds the values kept for one variable.
const maxHeld = 16

// add keeps v among the values, or marks them not known past maxHeld.
func (h *heldValues) add(v string) {
	switch {
	case slices.Contains(h.values, v):
	case len(h.values) >= maxHeld:
		h.unknown = true
	default:
		h.values = append(h.values, v)
	}
}

// record adds an assignment to the analysis once.
func (w *walker) record(a Assignment, depth int) {
	if !w.keep(a) {
		return
	}
	if !a.Static {
		return
	}
	if code, ok := trailingQualifiers(a.Value); ok {
		w.qualifierStringsCode(code, depth) // zsh_qualifiers.go: $~x runs them
	}
	if strings.HasPrefix(a.Value, "(") && strings.HasSuffix(a.Value, ")") && strings.ContainsAny(a.Value, "$`\\'\"") {
		// declare -a a='($(cmd))' (typeset, local, readonly, -A too)
		// takes a quoted value in parentheses for a compound assignment
		// and expands its elements, and an element's subscript again
		// (declare -a a='([\$\(cmd\)]=1)'): read as one.
		w.line("_="+a.Value, depth+1, dialectsOf("bash"))
		return
	}
	if holdsSubstitution(a.Value) {
		// Read as the argument of a command, where a[...] is a word.
		w.line(": "+a.Value, depth+1, dialectsOf("bash"))
	}
}

// keep adds an assignment to the analysis, reporting false when it
// holds it already.
func (w *walker) keep(a Assignment) bool {
	key := "\x00" + a.Name + "\x00" + a.Value + "\x00" + a.Dir.String()
	if a.Append {
		key += "\x00+"
	}
	if !a.Static {
		// A value known only when the line runs is another assignment
		// than a static one of the same text: "x=; read x" sets x to
		// what read reads, not to the empty value x= gave.
		key += "\x00?"
	}
	if w.seen[key] {
		return false
	}
	w.seen[key] = true
	w.a.Assignments = append(w.a.Assignments, a)
	return true
}

// AssignmentCode analyses the value of an environment variable set
// outside any command line (a terminal request's env) the way a value
// assigned in a line is: a command substitution it holds is code bash may
// run. It returns nil when the value holds none.
func AssignmentCode(value string, opts Options) *Analysis {
	if !holdsSubstitution(value) {
		return nil
	}
	return Analyze(": "+value, opts)
}
