package shellcmd

import (
	"regexp"
	"slices"
	"strings"
)

// inlineFlags maps interpreters to the options that give them a program
// on the command line.
var inlineFlags = map[string][]string{
	"perl": {"e", "E"}, "ruby": {"e"}, "node": {"e", "p", "-eval", "-print", "r", "-require", "-import", "-loader"},
	"nodejs": {"e", "p", "-eval", "-print", "r", "-require", "-import", "-loader"}, "bun": {"e", "p", "-eval", "-print"},
	"php": {"r", "a"}, "lua": {"e"}, "luajit": {"e"}, "Rscript": {"e"}, "R": {"e"}, "julia": {"e", "E", "-eval"},
	"osascript": {"e"}, "pwsh": {"c", "C", "command", "Command", "encodedcommand", "EncodedCommand", "e"},
	"powershell": {"c", "C", "command", "Command", "encodedcommand", "EncodedCommand", "e"},
	"expect":     {"c"}, "tclsh": {}, "wish": {}, "irb": {}, "ghci": {"e"}, "scala": {"e"}, "groovy": {"e"},
	"elixir": {"e"}, "erl": {"eval", "noshell"}, "jshell": {}, "racket": {"e"}, "guile": {"c"}, "sbcl": {"-eval"},
	"deno": {}, "swift": {"e"}, "gawk": {}, "awk": {}, "mawk": {}, "nawk": {}, "sed": {}, "gsed": {},
}

var pythonName = regexp.MustCompile(`^(python|pypy)[0-9.]*$`)

// interpreterHandler returns the handler of a program that runs code it
// is given inline or on its input, or nil.
func interpreterHandler(name string) handler {
	switch {
	case pythonName.MatchString(name):
		return pythonHandler
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		return awkHandler
	case name == "sed" || name == "gsed":
		return sedHandler
	case name == "deno":
		return func(form []Word) step {
			if len(form) > 1 && form[1].Text == "eval" || len(form) == 1 || len(form) > 1 && form[1].Text == "repl" {
				return step{notes: []Note{{Kind: RunsCode, Text: "deno runs inline code"}}}
			}
			return step{}
		}
	}
	flags, ok := inlineFlags[name]
	if !ok {
		return nil
	}
	return func(form []Word) step {
		operand := false
		for _, wd := range form[1:] {
			if wd.Kind == Dynamic {
				return step{notes: []Note{{Kind: RunsCode, Text: name + " argument is not static: " + wd.String()}}}
			}
			t := wd.Text
			if !strings.HasPrefix(t, "-") || t == "-" {
				operand = t != "-"
				break
			}
			for _, f := range flags {
				long := strings.HasPrefix(f, "-")
				switch {
				case long && (t == "-"+f || strings.HasPrefix(t, "-"+f+"=")),
					!long && len(f) > 1 && (t == "-"+f || t == "--"+f),
					!long && len(f) == 1 && !strings.HasPrefix(t, "--") && clusterHas(t, f[0]):
					return step{notes: []Note{{Kind: RunsCode, Text: name + " " + t + " runs a program given on the command line"}}}
				}
			}
		}
		if !operand {
			return step{notes: []Note{{Kind: RunsCode, Text: name + " runs the program it reads from its input"}}}
		}
		return step{}
	}
}

// clusterHas reports whether the short option cluster t ("-lne") holds
// letter c before any attached argument (letters only).
func clusterHas(t string, c byte) bool {
	for i := 1; i < len(t); i++ {
		ch := t[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z') {
			return false
		}
		if ch == c {
			return true
		}
	}
	return false
}

var pythonGrammar = grammar{short: shortOpts("bBdEhiIOPqsSuvVx", "cmWX", ""), long: longOpts("help version help-env help-xoptions help-all", "check-hash-based-pycs", "")}

func pythonHandler(form []Word) step {
	p := parseOptions(form, 1, pythonGrammar)
	switch {
	case p.problem != "":
		return step{notes: []Note{{Kind: RunsCode, Text: form[0].Text + ": " + p.problem}}}
	case p.has("c"):
		return step{notes: []Note{{Kind: RunsCode, Text: form[0].Text + " -c runs a program given on the command line"}}}
	case p.has("m"):
		return step{}
	case p.next >= len(form) || form[p.next].Text == "-" || p.has("i"):
		return step{notes: []Note{{Kind: RunsCode, Text: form[0].Text + " runs the program it reads from its input"}}}
	}
	return step{}
}

// scriptTool describes a program that runs a script in its own language
// (awk, sed): where the script comes from and what in it runs commands.
type scriptTool struct {
	grammar grammar
	// script is what the tool calls its script: "program", "script".
	script string
	// fileOpts are the options that name a script file; inlineOpts those
	// that give the script on the command line. Without an inline one,
	// the first operand is the script.
	fileOpts, inlineOpts []string
	// runs reports whether a script may run commands; how says how.
	runs func(script string) bool
	how  string
	// opens reports whether a script may open a file it names (see
	// script_files.go); which says with what.
	opens func(script string) bool
	which string
	// commands, when set, returns the shell commands a script gives to
	// run, why one it runs is not known until the line runs, and false
	// when the script cannot be read (script_commands.go).
	commands func(script string) (cmds []string, unknown string, ok bool)
}

var awkGrammar = grammar{short: shortOpts("bcCdhlMNOPrsStVgDLo", "Ffve", ""), long: longOpts(
	"traditional posix re-interval lint optimize sandbox characters-as-bytes copyright help version dump-variables profile pretty-print",
	"field-separator assign file source exec include load", "")}

// awkRunsCommands matches awk programs that run commands: system(),
// "cmd" | getline, print | "cmd".
var awkRunsCommands = regexp.MustCompile(`system|\|`)

var awkTool = scriptTool{grammar: awkGrammar, script: "program",
	fileOpts: []string{"f", "file", "exec", "include", "load"}, inlineOpts: []string{"e", "source"},
	runs: awkRunsCommands.MatchString, how: "(system or a pipe)",
	opens: awkOpensFiles, which: "(getline <, print >, ARGV or @include)",
	commands: awkRuns}

var sedGrammar = grammar{short: shortOpts("nrEsuzil", "efl", ""), long: longOpts(
	"quiet silent debug posix regexp-extended separate unbuffered null-data sandbox follow-symlinks help version",
	"expression file line-length", "in-place")}

var sedTool = scriptTool{grammar: sedGrammar, script: "script",
	fileOpts: []string{"f", "file"}, inlineOpts: []string{"e", "expression"},
	runs: sedExec, how: "(the e command or flag)",
	opens: sedOpensFiles, which: "(r, R, w, W or the w flag of s)",
	commands: sedRuns}

// awkHandler and sedHandler are the tools' handlers.
var awkHandler, sedHandler handler = awkTool.handle, sedTool.handle

// handle is the handler of the tool t.
func (t *scriptTool) handle(form []Word) step {
	p := parseOptions(form, 1, t.grammar)
	name := form[0].Text
	switch {
	case p.problem != "":
		return step{notes: []Note{{Kind: RunsCode, Text: name + ": " + p.problem}}}
	case p.has(t.fileOpts...):
		return step{notes: []Note{{Kind: RunsCode, Text: name + " runs a " + t.script + " file"}}}
	}
	var scripts []string
	for _, o := range p.opts {
		if slices.Contains(t.inlineOpts, o.name) {
			scripts = append(scripts, o.value)
		}
	}
	if len(scripts) == 0 && p.next < len(form) {
		if form[p.next].Kind != Static {
			return step{notes: []Note{{Kind: RunsCode, Text: name + " " + t.script + " is not static: " + form[p.next].String()}}}
		}
		scripts = append(scripts, form[p.next].Text)
	}
	for _, s := range scripts {
		if t.runs(s) {
			st := step{notes: []Note{{Kind: RunsCode, Text: name + " " + t.script + " runs commands " + t.how}}}
			t.addCommands(&st, name, scripts)
			return st
		}
	}
	for _, s := range scripts {
		if t.opens(s) {
			return step{notes: []Note{{Kind: OpensFiles, Text: name + " " + t.script + " opens files it names " + t.which + ", which the bridge does not decide as paths"}}}
		}
	}
	return step{}
}

// addCommands adds to st the commands the scripts give the tool to run,
// as sh code of their own (the tool runs them with /bin/sh), and notes a
// command known only when the line runs or a script that cannot be read:
// a rule naming the tool does not vouch for either.
func (t *scriptTool) addCommands(st *step, name string, scripts []string) {
	if t.commands == nil {
		return
	}
	for _, s := range scripts {
		cmds, unknown, ok := t.commands(s)
		if !ok {
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: name + " " + t.script + " runs commands the bridge cannot find in it"})
			continue
		}
		if unknown != "" {
			st.notes = append(st.notes, Note{Kind: NotStatic, Text: unknown + ", known only when the line runs"})
		}
		for _, c := range cmds {
			st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: c}, langs: dialectsOf("sh")})
		}
	}
}

// sedExec reports whether a sed script may use GNU sed's e command or the
// e flag of s. It reads each command after its address (sedCommands); it
// errs towards yes.
func sedExec(script string) bool {
	cmds, ok := sedCommands(script)
	if !ok {
		return true
	}
	for _, cmd := range cmds {
		switch {
		case cmd == "e" || strings.HasPrefix(cmd, "e ") || strings.HasPrefix(cmd, "e\t"):
			return true
		case len(cmd) > 1 && cmd[0] == 's':
			flags, ok := sedSubstFlags(cmd)
			if !ok {
				return true
			}
			if w := strings.IndexByte(flags, 'w'); w >= 0 {
				flags = flags[:w] // the rest is w's file name, which may hold an e
			}
			if strings.ContainsRune(flags, 'e') {
				return true
			}
		}
	}
	return false
}

// sedSubstFlags returns the flags of a sed s command (cmd starts with s
// and its delimiter): what follows the third delimiter, the ones a
// backslash escapes not counted ("s/a\/b/c/e"). The flags end with w
// and its file name, which may hold the delimiter ("s/x/y/ew /dev/stdout").
// ok is false when the command has fewer than three delimiters, or a
// delimiter that is not one ASCII byte.
func sedSubstFlags(cmd string) (string, bool) {
	if len(cmd) < 2 || cmd[1] >= 0x80 || cmd[1] == '\\' || cmd[1] == '\n' {
		return "", false
	}
	d, seen := cmd[1], 0
	for i := 2; i < len(cmd); i++ {
		switch cmd[i] {
		case '\\':
			i++
		case d:
			if seen++; seen == 2 {
				return cmd[i+1:], true
			}
		}
	}
	return "", false
}

// sedCommands returns a sed script's commands, each without its address
// (line numbers, $, ranges, /regex/ and \cregexc with their I and M
// flags, !). ok is false when an address's regex does not end, so that
// where the commands start is not known.
func sedCommands(script string) (cmds []string, ok bool) {
	for _, cmd := range strings.FieldsFunc(script, func(r rune) bool { return r == ';' || r == '\n' || r == '{' || r == '}' }) {
		cmd = strings.TrimLeft(cmd, " \t0123456789$,!~+")
		for strings.HasPrefix(cmd, "/") || strings.HasPrefix(cmd, "\\") {
			end := strings.IndexByte(cmd[1:], '/')
			if end < 0 {
				return nil, false
			}
			cmd = strings.TrimLeft(cmd[end+2:], " \t0123456789$,!~+IM")
		}
		cmds = append(cmds, cmd)
	}
	return cmds, true
}
