package shellcmd

import (
	"slices"
	"strings"
)

// GitArgs is what the words after a git subcommand say, read as git's
// option parser (parse-options) reads them: short options alone or
// clustered ("-af" is -a -f; a short option taking a value ends the
// cluster, "-mmsg"), long options by any unique prefix of their name
// ("--ha" is --hard), negated with "--no-", their value after "=" or in
// the next word. Every check of a git subcommand's options asks it
// whether an option is given, so none compares words.
type GitArgs struct {
	known bool
	opts  []gitGiven
	// Operands are the words that are not options or their values,
	// every word after "--" too.
	Operands []Word
	// Computed says a word before "--" is known only when the line
	// runs, which may be any option.
	Computed bool
	// DashDash says the words hold "--" (or "--end-of-options").
	DashDash bool
}

// gitGiven is one option word: the options it may be (more than one for
// an ambiguous prefix, which git refuses, or a long word of a subcommand
// whose options the table does not hold), whether it negates them, and
// its value.
type gitGiven struct {
	names    []string
	prefix   bool // names hold what was typed, a prefix of the option's name
	neg      bool
	value    Word
	hasValue bool
}

// gitOption is one option of a subcommand: its short letter (0 for
// none), its long name ("" for none) and whether it takes a value.
type gitOption struct {
	short byte
	long  string
	takes gitValue
}

// gitValue says whether an option takes a value.
type gitValue uint8

const (
	noValue    gitValue = iota
	takesValue          // attached, after "=", or the next word
	optValue            // only attached or after "="
)

// name is how an option is asked for: its long name, or its letter.
func (o gitOption) name() string {
	if o.long != "" {
		return o.long
	}
	return string(o.short)
}

// ReadGitArgs reads args, the words after git's subcommand sub ("stash
// push" for a subcommand of a subcommand), with the options
// gitSubOptions lists for sub. For a subcommand it does not list, every
// letter of a cluster is an option taking no value and a long word is
// whatever option it begins (see Has).
func ReadGitArgs(sub string, args []Word) GitArgs {
	table, known := gitSubOptions[sub]
	return readOptionWords(table, known, args)
}

// readOptionWords reads args with table, the options of the program
// that reads them; known says the table is whole.
func readOptionWords(table []gitOption, known bool, args []Word) GitArgs {
	g := GitArgs{known: known}
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.Text
		switch {
		case w.Kind == Dynamic || w.Kind == Glob && strings.HasPrefix(t, "-"):
			g.Computed = true
			g.Operands = append(g.Operands, w)
		case w.Kind == Static && (t == "--" || t == "--end-of-options"):
			g.DashDash = true
			g.Operands = append(g.Operands, args[i+1:]...)
			return g
		case w.Kind != Static || !strings.HasPrefix(t, "-") || t == "-":
			g.Operands = append(g.Operands, w)
		case strings.HasPrefix(t, "--"):
			i = g.readLong(table, args, i)
		default:
			i = g.readShort(table, args, i)
		}
	}
	return g
}

// readLong reads the long option word args[i] and returns the index of
// the last word it took.
func (g *GitArgs) readLong(table []gitOption, args []Word, i int) int {
	name, value, eq := strings.Cut(args[i].Text[2:], "=")
	given := gitGiven{value: Word{Kind: args[i].Kind, Text: value}, hasValue: eq}
	if !g.known {
		given.names, given.prefix = []string{name}, true
		g.opts = append(g.opts, given)
		return i
	}
	cands, negs := gitLongMatches(table, name)
	if len(cands) == 0 {
		// git refuses an option it does not know (a later git may
		// know it): kept under its own name, taking no value.
		given.names = []string{name}
		g.opts = append(g.opts, given)
		return i
	}
	for _, c := range cands {
		given.names = append(given.names, c.name())
	}
	given.neg = len(cands) == 1 && negs[0]
	g.opts = append(g.opts, given)
	if len(cands) == 1 && !given.neg && cands[0].takes == takesValue && !eq && i+1 < len(args) {
		i++
		g.opts[len(g.opts)-1].value, g.opts[len(g.opts)-1].hasValue = args[i], true
	}
	return i
}

// gitLongMatches returns the options a long word's name (without "--"
// and "=value") is, as parse-options matches it: the option it names
// exactly, or negated ("no-x" for x, "x" for an option named "no-x"),
// else every option it is a prefix of, plain or negated. More than one
// is an ambiguity git refuses.
func gitLongMatches(table []gitOption, name string) (cands []gitOption, negs []bool) {
	for _, o := range table {
		switch {
		case o.long == "":
		case name == o.long:
			return []gitOption{o}, []bool{false}
		case name == "no-"+o.long || strings.HasPrefix(o.long, "no-") && name == o.long[3:]:
			return []gitOption{o}, []bool{true}
		}
	}
	for _, o := range table {
		if o.long == "" {
			continue
		}
		neg, ok := false, false
		switch {
		case strings.HasPrefix(o.long, name):
			ok = true
		case strings.HasPrefix("no-", name), strings.HasPrefix(name, "no-") && strings.HasPrefix(o.long, name[3:]),
			strings.HasPrefix(o.long, "no-") && strings.HasPrefix(o.long[3:], name):
			ok, neg = true, true
		}
		if ok && !slices.ContainsFunc(cands, func(c gitOption) bool { return c.long == o.long }) {
			cands, negs = append(cands, o), append(negs, neg)
		}
	}
	return cands, negs
}

// readShort reads the short option cluster args[i] and returns the index
// of the last word it took.
func (g *GitArgs) readShort(table []gitOption, args []Word, i int) int {
	t := args[i].Text
	for j := 1; j < len(t); j++ {
		c := t[j]
		k := slices.IndexFunc(table, func(o gitOption) bool { return o.short == c })
		if k < 0 {
			if !g.known {
				g.opts = append(g.opts, gitGiven{names: []string{string(c)}})
			}
			continue // an option git does not know, or a digit of -NUM
		}
		o := table[k]
		given := gitGiven{names: []string{o.name()}}
		switch {
		case o.takes == noValue:
			g.opts = append(g.opts, given)
			continue
		case j+1 < len(t):
			given.value, given.hasValue = Word{Kind: args[i].Kind, Text: t[j+1:]}, true
		case o.takes == takesValue && i+1 < len(args):
			i++
			given.value, given.hasValue = args[i], true
		}
		g.opts = append(g.opts, given)
		return i
	}
	return i
}

// Has reports whether the words may give option name (a long name, or
// the letter of an option that has none) and do not take it back with a
// later "--no-" form: an ambiguous prefix counts as every option it
// begins (git refuses it, the bridge asks), and a word known only at run
// time as any option. It is the question for an option that makes a
// command do more.
func (g GitArgs) Has(name string) bool {
	on := false
	for _, o := range g.opts {
		switch {
		case !g.maybe(o, name):
		case len(o.names) == 1 && !o.prefix:
			on = !o.neg
		default:
			on = on || !o.neg
		}
	}
	return on || g.Computed
}

// Surely reports whether the words give option name for certain: the
// last word naming it alone names it, not negated, and no word is known
// only at run time. It is the question for an option that makes a
// command do less ("git rm --cached" deletes no file).
func (g GitArgs) Surely(name string) bool {
	if g.Computed {
		return false
	}
	on := false
	for _, o := range g.opts {
		if len(o.names) == 1 && !o.prefix && o.names[0] == name {
			on = !o.neg
		} else if g.maybe(o, name) {
			on = false
		}
	}
	return on
}

// Values returns the values given to option name, in order.
func (g GitArgs) Values(name string) []Word {
	var out []Word
	for _, o := range g.opts {
		if o.hasValue && !o.neg && g.maybe(o, name) {
			out = append(out, o.value)
		}
	}
	return out
}

// maybe reports whether the option word o may be option name: one of
// its names, or, for a subcommand the table does not list, a long name
// it begins.
func (g GitArgs) maybe(o gitGiven, name string) bool {
	if !o.prefix {
		return slices.Contains(o.names, name)
	}
	typed := o.names[0]
	if len(name) == 1 {
		return false
	}
	return strings.HasPrefix(name, typed) || strings.HasPrefix("no-", typed) ||
		strings.HasPrefix(typed, "no-") && strings.HasPrefix(name, typed[3:])
}

// HasNo reports whether the words may take option name back ("--no-x",
// or a prefix of it; an option named "no-x" given as such): the question
// for an option whose negation makes a command do more ("git add
// --no-ignore-removal" is -A). A word known only at run time may be it.
func (g GitArgs) HasNo(name string) bool {
	for _, o := range g.opts {
		if g.maybe(o, name) && (o.neg || len(o.names) > 1 || o.prefix) {
			return true
		}
	}
	return g.Computed
}

// Given returns, for each option word, the names of the options it may
// be (one, unless its prefix is ambiguous; what was typed for a
// subcommand whose options the table does not hold or an option it does
// not know).
func (g GitArgs) Given() [][]string {
	out := make([][]string, 0, len(g.opts))
	for _, o := range g.opts {
		out = append(out, o.names)
	}
	return out
}
