package shellcmd

import "strings"

// argKind says whether an option takes an argument.
type argKind uint8

const (
	noArg       argKind = iota
	requiredArg         // attached (-sKILL, --signal=KILL) or the next word
	optionalArg         // attached only (-i{}, --preserve-env=A)
)

// grammar is a program's option syntax (getopt_long, stopping at the
// first operand as command runners do).
type grammar struct {
	// short maps each short option letter to its argument kind.
	short map[byte]argKind
	// long maps long option names (without "--") to their argument kind;
	// unambiguous prefixes are accepted, as getopt_long does.
	long map[string]argKind
	// plus: "+x" is an option too (shells).
	plus bool
}

// shortOpts builds a short option table: letters without an argument,
// letters with a required one, letters with an optional attached one.
func shortOpts(flags, withArg, optArg string) map[byte]argKind {
	m := map[byte]argKind{}
	for i := range len(flags) {
		m[flags[i]] = noArg
	}
	for i := range len(withArg) {
		m[withArg[i]] = requiredArg
	}
	for i := range len(optArg) {
		m[optArg[i]] = optionalArg
	}
	return m
}

// option is one option found in a command's words.
type option struct {
	name  string // "s" for -s, "signal" for --signal
	long  bool
	value string
	has   bool // value given
	// at is the index of the word the option is in.
	at int
}

// parsed is the result of reading a program's options.
type parsed struct {
	opts []option
	// next is the index of the first operand.
	next int
	// problem is why the options could not be read (an unknown option, a
	// word computed at run time, a missing argument); empty when read.
	problem string
	// dashdash says a "--" ended the options.
	dashdash bool
}

// has reports whether any of the named options was given.
func (p *parsed) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// value returns the argument of the last of the named options given.
func (p *parsed) value(names ...string) (string, bool) {
	v, ok := "", false
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n && o.has {
				v, ok = o.value, true
			}
		}
	}
	return v, ok
}

// parseOptions reads options from words[start:] up to the first operand
// or "--".
func parseOptions(words []Word, start int, g grammar) parsed {
	p := parsed{next: start}
	i := start
	for i < len(words) {
		wd := words[i]
		if wd.Kind != Static {
			if wd.Kind == Dynamic || strings.HasPrefix(wd.Text, "-") {
				p.problem = "an option word is not static: " + wd.String()
				p.next = i
				return p
			}
			break // a glob operand
		}
		s := wd.Text
		switch {
		case s == "--":
			p.next, p.dashdash = i+1, true
			return p
		case strings.HasPrefix(s, "--"):
			name, val, hasVal := strings.Cut(s[2:], "=")
			full, kind, ok := lookupLong(g.long, name)
			if !ok {
				p.problem = "unknown option " + s
				p.next = i
				return p
			}
			o := option{name: full, long: true, value: val, has: hasVal, at: i}
			if kind == requiredArg && !hasVal {
				if i+1 >= len(words) {
					p.problem = "option " + s + " needs an argument"
					p.next = len(words)
					return p
				}
				if words[i+1].Kind != Static {
					p.problem = "the argument of " + s + " is not static"
				}
				o.value, o.has = words[i+1].Text, true
				i++
			}
			if kind == noArg && hasVal {
				p.problem = "option " + s + " takes no argument"
			}
			p.opts = append(p.opts, o)
			i++
		case len(s) > 1 && (s[0] == '-' || g.plus && s[0] == '+'):
			consumed := false
			for j := 1; j < len(s); j++ {
				kind, ok := g.short[s[j]]
				if !ok {
					p.problem = "unknown option -" + s[j:j+1] + " in " + s
					p.next = i
					return p
				}
				o := option{name: s[j : j+1], at: i}
				if s[0] == '+' {
					o.name = "+" + o.name
				}
				if kind != noArg {
					if j+1 < len(s) {
						o.value, o.has = s[j+1:], true
					} else if kind == requiredArg {
						if i+1 >= len(words) {
							p.problem = "option -" + s[j:j+1] + " needs an argument"
							p.next = len(words)
							return p
						}
						if words[i+1].Kind != Static {
							p.problem = "the argument of -" + s[j:j+1] + " is not static"
						}
						o.value, o.has = words[i+1].Text, true
						consumed = true
					}
					p.opts = append(p.opts, o)
					break
				}
				p.opts = append(p.opts, o)
			}
			i++
			if consumed {
				i++
			}
		default:
			p.next = i
			return p
		}
	}
	p.next = i
	return p
}

// lookupLong finds a long option by its name or an unambiguous prefix.
func lookupLong(long map[string]argKind, name string) (string, argKind, bool) {
	if k, ok := long[name]; ok {
		return name, k, true
	}
	found, kind, n := "", noArg, 0
	for l, k := range long {
		if strings.HasPrefix(l, name) && name != "" {
			found, kind = l, k
			n++
		}
	}
	return found, kind, n == 1
}
