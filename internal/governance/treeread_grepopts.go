package governance

import "strings"

// GNU grep reads its options with getopt_long, which takes any unambiguous
// prefix of a long option for the option ("--recur" is --recursive, "--dir
// recurse" --directories=recurse, "--regex=P" --regexp=P), and its
// --directories value with argmatch, which takes any unambiguous prefix of
// the value ("-d rec" is -d recurse). A reading that knows only the full
// spellings misses "grep --recur SECRET ." reading every file below the
// directory, .env among them.

// grepLongNames are GNU grep's long options (grep --help, 3.8).
var grepLongNames = strings.Fields(`after-context basic-regexp before-context binary binary-files byte-offset
	color colour context count dereference-recursive devices directories exclude exclude-dir exclude-from
	extended-regexp file files-with-matches files-without-match fixed-strings group-separator help
	ignore-case include initial-tab invert-match label line-buffered line-number line-regexp max-count
	no-filename no-group-separator no-ignore-case no-messages null null-data only-matching perl-regexp
	quiet recursive regexp silent text version with-filename word-regexp`)

// longName returns the long option name stands for among s.longNames: the
// option itself, or the one option it is a prefix of; name unchanged when
// s lists none (the program takes no abbreviation) or when it is a prefix
// of several (the program refuses the line).
func (s optSet) longName(name string) string {
	full := ""
	for _, n := range s.longNames {
		if n == name {
			return n
		}
		if strings.HasPrefix(n, name) {
			if full != "" {
				return name
			}
			full = n
		}
	}
	if full == "" {
		return name
	}
	return full
}

// expandLong returns opts with each long option ("--name" or
// "--name=value") written in full, as s's program reads it.
func (s optSet) expandLong(opts []string) []string {
	if len(s.longNames) == 0 {
		return opts
	}
	out := make([]string, len(opts))
	for i, t := range opts {
		out[i] = t
		if name, ok := strings.CutPrefix(t, "--"); ok && name != "" {
			name, value, eq := strings.Cut(name, "=")
			out[i] = "--" + s.longName(name)
			if eq {
				out[i] += "=" + value
			}
		}
	}
	return out
}

// grepRecurses reports whether grep's options opts (long ones written in
// full) make it read directories whole: -r, -R, or -d/--directories given
// recurse or a prefix argmatch takes for it.
func grepRecurses(opts []string) bool {
	if shortHas(opts, grepOpts, 'R') || shortHas(opts, grepOpts, 'r') || longHas(opts, "recursive", "dereference-recursive") {
		return true
	}
	recurse := func(v string) bool { return len(v) >= 3 && strings.HasPrefix("recurse", v) }
	for i, t := range opts {
		next := ""
		if i+1 < len(opts) {
			next = opts[i+1]
		}
		if v, ok := strings.CutPrefix(t, "--directories="); ok && recurse(v) || t == "--directories" && recurse(next) {
			return true
		}
		if len(t) < 2 || t[0] != '-' || t[1] == '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(grepOpts.shortValue, t[j]) < 0 {
				continue
			}
			if t[j] == 'd' && (j+1 < len(t) && recurse(t[j+1:]) || j+1 == len(t) && recurse(next)) {
				return true
			}
			break
		}
	}
	return false
}
