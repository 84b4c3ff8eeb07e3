package shellcmd

import "strings"

// A program started with no PATH in its environment looks names up where
// it runs: GNU make runs a recipe's "helper" as ./helper, and a bash
// started beneath (a recipe's bash -c, a script's #!/bin/bash) takes its
// default PATH, which ends in ".". bash itself, once PATH is unset, looks
// a name up in the directory it is in. A line removes PATH with env -i,
// env -, env -u PATH (--unset, its prefixes, -S splitting them from a
// string), exec -c and unset PATH; declare, export -n, local and the like
// are assignments of an empty PATH (decl.go). Command.NoPath records the
// first three here; a caller reads such a PATH as one holding "." and
// the empty element.

// noPathOf returns why the program form runs, or the shell once it has
// run, may start a program with no PATH in its environment; empty when
// it does not.
func noPathOf(form []Word) string {
	switch form[0].Name() {
	case "env":
		return envNoPath(form)
	case "exec":
		p := parseOptions(form, 1, execGrammar)
		switch {
		case p.problem != "":
			return "exec's options are not read (" + p.problem + "), and -c starts the command without PATH"
		case p.has("c") && p.next < len(form):
			return "exec -c starts the command without PATH"
		}
	case "unset":
		return unsetNoPath(form)
	}
	return ""
}

// execGrammar is bash's exec: -c empties the environment, -l makes a
// login shell's argv[0], -a names it.
var execGrammar = grammar{short: shortOpts("cl", "a", "")}

// envNoPath returns why env, as its words say, starts its command
// without PATH: -i, --ignore-environment, a "-" operand, or -u/--unset
// naming PATH, unless a NAME=value word gives PATH again. Options it
// cannot read, and a NAME=value word computed at run time, may be any of
// these; env without a command runs nothing.
func envNoPath(form []Word) string {
	p := envOptions(form)
	if p.problem != "" {
		return "env's options are not read (" + p.problem + "), and -i or -u PATH starts the command without PATH"
	}
	why := ""
	if p.has("i", "ignore-environment") {
		why = "env -i starts the command with an empty environment, without PATH"
	}
	for _, o := range p.opts {
		if (o.name == "u" || o.name == "unset") && o.value == "PATH" {
			why = "env -u PATH starts the command without PATH"
		}
	}
	i := p.next
	if i < len(form) && form[i].Kind == Static && form[i].Text == "-" {
		why = "env - starts the command with an empty environment, without PATH"
		i++
	}
	for ; i < len(form); i++ {
		wd := form[i]
		name, value, ok := strings.Cut(wd.Text, "=")
		if !ok || name == "" || wd.Kind == Glob {
			break
		}
		if name == "PATH" && (wd.Kind == Static || earlierPath(value)) {
			why = "" // env -i PATH=/usr/bin:/bin make: the PATH given
		}
	}
	if i >= len(form) {
		return ""
	}
	return why
}

// unsetNoPath returns why unset may remove PATH: it names PATH, or a
// name computed at run time, as a variable (not -f, functions alone).
func unsetNoPath(form []Word) string {
	functions := false
	names := false
	for _, wd := range form[1:] {
		switch {
		case wd.Kind == Static && strings.HasPrefix(wd.Text, "-") && wd.Text != "--" && !names:
			if strings.Contains(wd.Text, "f") {
				functions = true
			}
			if strings.ContainsAny(wd.Text, "vn") {
				functions = false
			}
		case wd.Kind == Static && wd.Text == "--" && !names:
			names = true
		case functions:
		case wd.Kind != Static:
			return "unset " + wd.Text + " may remove PATH, a name computed when the line runs"
		case wd.Text == "PATH":
			return "unset PATH removes PATH"
		default:
			names = true
		}
	}
	return ""
}

// namedAssignment reports whether wd, as written, starts NAME=: a word
// computed at run time that cannot be an option.
func namedAssignment(wd Word) bool {
	n := nameEnd(wd.Text)
	return n > 0 && n < len(wd.Text) && wd.Text[n] == '='
}

// earlierPath reports whether value, as written, is the earlier PATH
// alone ("$PATH"): env -i PATH="$PATH" keeps it.
func earlierPath(value string) bool {
	v := strings.NewReplacer(`"`, "", `'`, "").Replace(value)
	return v == "$PATH" || v == "${PATH}"
}

// envHandler reads env's options (envOptions), then what it runs.
func envHandler(form []Word) step {
	p := envOptions(form)
	if p.problem != "" {
		return problemStep(form, p)
	}
	return envRuns(form, p)
}

// envOptions reads env's options. A word computed at run time that
// starts NAME= is no option but env's first operand (env PATH=$PATH:
// make, env -i HOME=$HOME ...), where every word before it is static.
func envOptions(form []Word) parsed {
	p := parseOptions(form, 1, envGrammar)
	if p.problem == "" || p.next >= len(form) || !namedAssignment(form[p.next]) {
		return p
	}
	for _, wd := range form[1:p.next] {
		if wd.Kind != Static {
			return p
		}
	}
	p.problem = ""
	return p
}
