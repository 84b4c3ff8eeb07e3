package shellcmd

import (
	"regexp"
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
	fam := InterpreterName(name)
	switch {
	case fam == "python":
		return pythonHandler
	case fam == "awk" || fam == "gawk" || fam == "mawk" || fam == "nawk":
		return awkHandler
	case fam == "sed" || fam == "gsed":
		return sedHandler
	case fam == "deno":
		return func(form []Word) step {
			if len(form) > 1 && form[1].Text == "eval" || len(form) == 1 || len(form) > 1 && form[1].Text == "repl" {
				return step{notes: []Note{{Kind: RunsCode, Text: "deno runs inline code"}}}
			}
			return step{}
		}
	}
	flags, ok := inlineFlags[fam]
	if !ok {
		return nil
	}
	inline := func(form []Word) step {
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
	if fam == "bun" {
		return bunHandler(inline)
	}
	return inline
}

// bunX reads "bun x" (bunx) as a tool runner: the package's command and
// its words are a command of their own.
var bunX = runner{subs: [][]string{{"x"}}, values: []string{"-p", "--package"}, flags: []string{"--bun", "--silent", "--verbose", "--no-install"}}

// bunHandler reads bun's form: "bun x CMD ..." runs CMD as a command of
// its own, decided as any; bun's other forms are read by inline (-e, -p
// and its input).
func bunHandler(inline handler) handler {
	return func(form []Word) step {
		if bunX.matchSub(form, 1) {
			return bunX.handle(form)
		}
		return inline(form)
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

// pythonModule reads form's options as CPython reads them, one letter
// at a time through each cluster ("-Im", "-E"), -W and -X taking a value
// (the cluster's rest or the next word), up to -m: it returns the module
// -m names ("-m pip", "-mpip", "-Im pip") and the words after it, which
// are the module's arguments. ok is false when the line runs no module
// (a script, -c, its input) or a word of its options is computed at run
// time.
func pythonModule(form []Word) (module string, args []Word, ok bool) {
	for i := 1; i < len(form); i++ {
		w := form[i]
		if w.Kind != Static || !strings.HasPrefix(w.Text, "-") || w.Text == "-" || w.Text == "--" {
			return "", nil, false
		}
		t := w.Text
		if strings.HasPrefix(t, "--") {
			if name, _, has := strings.Cut(t[2:], "="); name == "check-hash-based-pycs" && !has {
				i++
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			kind, known := pythonGrammar.short[t[j]]
			if !known || kind == noArg {
				continue
			}
			value := t[j+1:]
			if value == "" {
				if i+1 >= len(form) || form[i+1].Kind != Static {
					return "", nil, false
				}
				i++
				value = form[i].Text
			}
			switch t[j] {
			case 'm':
				return value, form[i+1:], true
			case 'c':
				return "", nil, false
			}
			break
		}
	}
	return "", nil, false
}

func pythonHandler(form []Word) step {
	if _, _, ok := pythonModule(form); ok {
		return step{} // the words after -m's module are the module's
	}
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

// sedExec reports whether a sed script may use GNU sed's e command or the
// e flag of s. It reads each command after its address (sedCommands); it
// errs towards yes.
func sedExec(script string) bool {
	return sedScriptUses(script, func(cmd string) bool {
		return cmd == "e" || strings.HasPrefix(cmd, "e ") || strings.HasPrefix(cmd, "e\t")
	}, func(flags string) bool {
		if w := strings.IndexByte(flags, 'w'); w >= 0 {
			flags = flags[:w] // the rest is w's file name, which may hold an e
		}
		return strings.ContainsRune(flags, 'e')
	})
}

// sedScriptUses reports whether a sed script has a command, read after
// its address (sedCommands), of which command reports true, or an s
// command with flags (sedSubstFlags) of which flags reports true. It errs
// towards yes: a script whose commands or s flags cannot be read has one.
func sedScriptUses(script string, command, flags func(string) bool) bool {
	cmds, ok := sedCommands(script)
	if !ok {
		return true
	}
	for _, cmd := range cmds {
		if command(cmd) {
			return true
		}
		if len(cmd) > 1 && cmd[0] == 's' {
			f, ok := sedSubstFlags(cmd)
			if !ok || flags(f) {
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
