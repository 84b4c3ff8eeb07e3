package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// shellNames are the shells whose -c string, script or input is shell
// code.
const shellNames = "sh bash rbash dash ash posh zsh ksh mksh yash fish csh tcsh"

// modelledShells are parsed with their own grammar; the others are read
// as bash and sh, which they resemble, and need approval.
var modelledShells = map[string]bool{"sh": true, "bash": true, "rbash": true, "dash": true, "ash": true, "posh": true}

var bashGrammar = grammar{plus: true, short: shortOpts("abefhkmnptuvxBCEHPTilrsDc", "oO", ""), long: longOpts(
	"debugger dump-po-strings dump-strings help login noediting noprofile norc posix pretty-print restricted verbose version wordexp",
	"init-file rcfile", "")}

var zshGrammar = grammar{plus: true, short: shortOpts("0123456789abcdefghijklmnpqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "o", ""),
	long: longOpts("help version emulate", "", "")}

// shellHandler reads a shell's options: -c runs the first operand as a
// command string; -s, or no operand, reads commands from the input; else
// the operand is a script file.
func shellHandler(name string) handler {
	return func(form []Word) step {
		g := bashGrammar
		if !modelledShells[name] {
			g = zshGrammar
		}
		p := parseOptions(form, 1, g)
		st := step{}
		if !modelledShells[name] {
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: name + "'s grammar is not modelled; its code is read as bash and sh"})
		}
		if p.problem != "" {
			pst := problemStep(form, p)
			st.notes = append(st.notes, pst.notes...)
			// Any later word may be the command string, and a word
			// not static may be -s: the shell may read its input.
			st.inputForms = inputShellForms(name, form)
			for i := max(p.next, 1); i < len(form); i++ {
				st.shell = append(st.shell, shellRun{word: form[i], langs: dialectsOf(name)})
			}
			return st
		}
		if p.has("rcfile", "init-file") {
			st.notes = append(st.notes, Note{Kind: RunsCode, Text: name + " runs a start-up file"})
			if v, ok := p.value("rcfile", "init-file"); ok && v != "" {
				st.startupScript = &Word{Kind: Static, Text: v}
			}
		}
		switch {
		case p.has("c"):
			if p.next >= len(form) {
				st.notes = append(st.notes, Note{Kind: Unparsed, Text: name + " -c without a command string"})
				return st
			}
			st.shell = append(st.shell, shellRun{word: form[p.next], langs: dialectsOf(name), params: rest(form, p.next+1), unseen: inputShellForms(name, form)})
		case p.has("s") || p.next >= len(form) || form[p.next].Kind == Static && form[p.next].Text == "-":
			st.stdinShell = dialectsOf(name)
			st.inputForms = inputShellForms(name, form)
		default:
			if fd, ok := fdScript(form[p.next]); ok {
				st.fdShell, st.fdScript = dialectsOf(name), fd
				if fd == 0 {
					st.inputForms = inputShellForms(name, form)
				}
				break
			}
			st.notes = append(st.notes, Note{Kind: RunsCode, Text: name + " runs the script " + form[p.next].String()})
			st.shellScript = &form[p.next]
		}
		return st
	}
}

// currentShell is the grammars of code the shell running the line runs
// itself (eval's string, a trap's action, an alias's value, a script
// sourced from a descriptor): sh (dash) has each of those builtins, and
// an IDE may run the line with it, so the code is read as dash reads it
// too ("trap 'echo x &>/dev/null rm x' EXIT" runs rm x in sh).
var currentShell = dialectsOf("sh")

// evalHandler: eval joins its arguments and runs them as shell code.
func evalHandler(form []Word) step {
	st := step{notes: []Note{{Kind: RunsCode, Text: "eval runs its arguments as shell code"}}}
	if len(form) > 1 {
		st.shell = append(st.shell, shellRun{word: joined(form, 1), langs: currentShell})
	}
	return st
}

// sourceHandler: source and . run a file's commands in the shell.
func sourceHandler(form []Word) step {
	what := "a file"
	if len(form) > 1 {
		what = form[1].String()
		if fd, ok := fdScript(form[1]); ok {
			return step{fdShell: currentShell, fdScript: fd}
		}
	}
	st := step{notes: []Note{{Kind: RunsCode, Text: form[0].Text + " runs the commands in " + what}}}
	if len(form) > 1 {
		st.shellScript = &form[1]
	}
	return st
}

// trapHandler: the action of trap runs as shell code when the signal
// comes.
func trapHandler(form []Word) step {
	i := 1
	for i < len(form) && form[i].Kind == Static && strings.HasPrefix(form[i].Text, "-") && form[i].Text != "-" {
		if form[i].Text == "--" {
			i++
			break
		}
		if form[i].Text == "-p" || form[i].Text == "-l" || form[i].Text == "-P" {
			return step{}
		}
		i++
	}
	if i+1 >= len(form) || form[i].Kind == Static && form[i].Text == "-" {
		return step{}
	}
	return step{shell: []shellRun{{word: form[i], langs: currentShell}}}
}

// aliasHandler: an alias's value runs wherever its name is used later
// (bash -i expands aliases), so it is code, and it changes what later
// words mean.
func aliasHandler(form []Word) step {
	st := step{}
	for _, wd := range form[1:] {
		if wd.Kind == Dynamic {
			st.notes = append(st.notes, Note{Kind: NotStatic, Text: "alias definition is not static: " + wd.String()})
			continue
		}
		if _, value, ok := strings.Cut(wd.Text, "="); ok {
			st.notes = append(st.notes, Note{Kind: RunsCode, Text: "alias makes a later word run other commands"})
			if aliasJoinsNext(value) {
				// Expanded, the text goes on into what follows the
				// alias's use ("r\" then "m x" on the next line is
				// rm x), which no reading of the value alone shows.
				st.notes = append(st.notes, Note{Kind: NotStatic, Text: "alias text ends in a backslash or an open quote, so where it is used it joins the text after it"})
			}
			st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: value}, langs: currentShell})
		}
	}
	return st
}

// namesHandler: read and getopts set the variables they name (read
// without a name sets REPLY; getopts sets OPTARG as well).
func namesHandler(g grammar) handler {
	return func(form []Word) step {
		p := parseOptions(form, 1, g)
		st := step{}
		a, array := p.value("a")
		if array {
			st.assigns = append(st.assigns, Assignment{Name: a})
		}
		names := rest(form, p.next)
		if form[0].Text == "getopts" && len(names) > 0 {
			// getopts OPTSTRING NAME [ARG...]: NAME and OPTARG.
			names = names[1:min(2, len(names))]
			st.assigns = append(st.assigns, Assignment{Name: "OPTARG"})
		}
		for _, wd := range names {
			st.assigns = append(st.assigns, Assignment{Name: wd.Text})
		}
		if len(names) == 0 && !array && form[0].Text == "read" {
			st.assigns = append(st.assigns, Assignment{Name: "REPLY"})
		}
		return st
	}
}

// mapfileHandler: mapfile -C runs its callback as shell code.
func mapfileHandler(form []Word) step {
	p := parseOptions(form, 1, grammar{short: shortOpts("t", "dnOsuCc", "")})
	st := step{}
	if cb, ok := p.value("C"); ok {
		st.notes = append(st.notes, Note{Kind: RunsCode, Text: "mapfile -C runs a callback"})
		st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: cb}, langs: dialectsOf("bash")})
	}
	names := rest(form, p.next)
	for _, wd := range names {
		st.assigns = append(st.assigns, Assignment{Name: wd.Text})
	}
	if len(names) == 0 {
		st.assigns = append(st.assigns, Assignment{Name: "MAPFILE"})
	}
	return st
}

// printfHandler: printf -v NAME (or -vNAME, among its options) sets a
// variable, to the text printfValue gives where the line shows it.
func printfHandler(form []Word) step {
	for i := 1; i < len(form) && form[i].Kind == Static && strings.HasPrefix(form[i].Text, "-"); i++ {
		name, next := "", 0
		switch t := form[i].Text; {
		case t == "-v" && i+1 < len(form):
			name, next = form[i+1].Text, i+2
		case strings.HasPrefix(t, "-v"):
			name, next = t[2:], i+1 // "-vPATH"
		case t == "--":
			return step{}
		default:
			continue
		}
		if v, ok := printfValue(form[next:]); ok {
			return step{assigns: []Assignment{{Name: name, Value: v, Static: true}}}
		}
		return step{assigns: []Assignment{{Name: name}}}
	}
	return step{}
}

// printfValue returns what printf writes for the words args (a format and
// its arguments, after "--" if it starts so) when they are static, as
// mvdan.cc/sh's expand.Format writes it: escapes decoded, conversions made,
// and the format used again for arguments left over ("printf -v x
// '\x72m'" sets x to rm, "printf -v x %s.md GOVERNANCE" to
// GOVERNANCE.md), cut at a NUL, which no shell variable holds. ok is false
// for a word computed at run time, a format expand does not take, and an
// argument holding \c, which ends the output where %b reads it.
func printfValue(args []Word) (string, bool) {
	if len(args) > 0 && args[0].Kind == Static && args[0].Text == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return "", false
	}
	var rest []string
	for _, a := range args {
		if a.Kind != Static || strings.Contains(a.Text, `\c`) {
			return "", false
		}
		rest = append(rest, a.Text)
	}
	format, rest := rest[0], rest[1:]
	rest, ok := bashFormatArgs(format, rest)
	if !ok {
		return "", false
	}
	var b strings.Builder
	for {
		out, used, err := expand.Format(nil, format, rest)
		if err != nil {
			return "", false
		}
		b.WriteString(out)
		if used == 0 || used >= len(rest) {
			break
		}
		rest = rest[used:]
	}
	v, _, _ := strings.Cut(b.String(), "\x00")
	return v, true
}

// bashFormatArgs returns args as expand.Format must be given them to make
// what bash's printf does of format and args, and false where it cannot.
// bash reads an argument of %b's \0 and up to three octal digits (\0155 is
// "m"), Format up to three digits in all ("\r5"): where every conversion
// is %b, such escapes are given to Format without their 0; where %b is
// mixed with others, or has a width or precision (bash pads, Format does
// not), the value is left to be computed at run time.
func bashFormatArgs(format string, args []string) ([]string, bool) {
	onlyB, anyB := true, false
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.*", format[j]) >= 0 {
			j++
		}
		switch {
		case j < len(format) && format[j] == '%' && j == i+1:
		case j < len(format) && format[j] == 'b':
			if j > i+1 {
				return nil, false // %5b
			}
			anyB = true
		default:
			onlyB = false
		}
		i = j
	}
	if !anyB {
		return args, true
	}
	out := make([]string, len(args))
	for n, a := range args {
		var b strings.Builder
		for k := 0; k < len(a); k++ {
			if a[k] == '\\' && k+2 < len(a) && a[k+1] == '0' && a[k+2] >= '0' && a[k+2] <= '7' {
				if !onlyB {
					return nil, false
				}
				b.WriteByte('\\')
				k++ // the 0; up to three digits follow, as Format reads them
				continue
			}
			if a[k] == '\\' && k+1 < len(a) {
				b.WriteString(a[k : k+2])
				k++
				continue
			}
			b.WriteByte(a[k])
		}
		out[n] = b.String()
	}
	return out, true
}

// callbackHandler: builtins whose named options run code or change what a
// name runs (complete -C, bind -x, enable -f, hash -p).
func callbackHandler(letters ...string) handler {
	return func(form []Word) step {
		for _, wd := range form[1:] {
			if wd.Kind != Static || !strings.HasPrefix(wd.Text, "-") {
				continue
			}
			for _, l := range letters {
				if strings.Contains(wd.Text[1:], l) {
					return step{notes: []Note{{Kind: RunsCode, Text: form[0].Text + " " + wd.Text + " runs code or changes what a name runs"}}}
				}
			}
		}
		return step{}
	}
}

// aliasJoinsNext reports whether an alias's text, expanded, runs on into
// the text after its use: it ends in an unquoted backslash, or leaves a
// quote open.
func aliasJoinsNext(value string) bool {
	var quote byte
	escaped := false
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case escaped:
			escaped = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			escaped = true
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		}
	}
	return escaped || quote != 0
}
