package shellcmd

import (
	"regexp"
	"runtime"
	"slices"
	"strings"
)

// sed and awk run a script in their own language, which can run shell
// commands (script_commands.go) and open files (script_files.go). A rule
// allowing the tool is written for the text processing its scripts
// usually do, so it does not vouch for those: the script is judged
// wherever it comes from. It is given on the line (sed's first operand,
// -e, --expression; awk's first operand, -e, --source), in a file the
// line names (-f, --file; awk's -E and --exec), or on a descriptor the
// statement feeds ("-f -", -f /dev/stdin, /dev/fd/N). A script on the
// line, or a here-document's on a descriptor, is judged here; a file's
// is judged by the caller that reads it (Command.Scripts,
// AnalyzeScript). What cannot be known (an option the bridge does not
// read, a script computed or fed from a pipe, gawk's libraries) needs
// approval whatever rule names the tool.

// scriptTool describes a program that runs a script in its own language
// (awk, sed): where the script comes from and what in it runs commands.
type scriptTool struct {
	grammar grammar
	// lang is the script's language (Script.Lang).
	lang string
	// script is what the tool calls its script: "program", "script".
	script string
	// permutes says the tool reads options after its operands as well
	// (GNU getopt's permutation, as GNU sed does): "sed p a.txt -e
	// 'e cmd'" runs both scripts.
	permutes bool
	// fileOpts are the options that name a script file; inlineOpts those
	// that give the script on the command line. Without either, the
	// first operand is the script.
	fileOpts, inlineOpts []string
	// loads maps the options that load code the bridge does not read to
	// what they load.
	loads map[string]string
	// runs reports whether a script may run commands; how says how.
	runs func(script string) bool
	how  string
	// opens reports whether a script may open a file it names (see
	// script_files.go); which says with what.
	opens func(script string) bool
	which string
	// commands returns the shell commands a script gives to run, why one
	// it runs is not known until the line runs, and false when the
	// script cannot be read (script_commands.go).
	commands func(script string) (cmds []string, unknown string, ok bool)
}

// awkGrammar reads the options of gawk, mawk, busybox awk and the one
// true awk. gawk's -d, -L and -o take an optional value attached, which
// names a file it writes (-d, -o) or changes nothing: read as flags, an
// attached value is not understood, and the command needs approval.
var awkGrammar = grammar{short: shortOpts("bcCdghkILMnNOPrsStVYo", "FfveEilWZ", ""), long: longOpts(
	"traditional posix re-interval lint-old optimize no-optimize sandbox characters-as-bytes copyright help version "+
		"dump-variables profile pretty-print non-decimal-data bignum csv use-lc-numeric trace debug",
	"field-separator assign file source exec include load", "lint")}

// awkRunsCommands matches awk programs that run commands: system(),
// "cmd" | getline, print | "cmd".
var awkRunsCommands = regexp.MustCompile(`system|\|`)

var awkTool = scriptTool{grammar: awkGrammar, lang: "awk", script: "program",
	fileOpts: []string{"f", "file", "E", "exec"}, inlineOpts: []string{"e", "source"},
	loads: map[string]string{
		"i": "-i includes a library it finds on AWKPATH, which the bridge does not read", "include": "--include includes a library it finds on AWKPATH, which the bridge does not read",
		"l": "-l loads a shared library: native code", "load": "--load loads a shared library: native code",
		"D": "-D runs the debugger commands it reads, whose eval runs awk code", "debug": "--debug runs the debugger commands it reads, whose eval runs awk code",
	},
	runs: awkRunsCommands.MatchString, how: "(system or a pipe)",
	opens: awkOpensFiles, which: "(getline <, print >, ARGV or @include)",
	commands: awkRuns}

var sedGrammar = grammar{short: shortOpts("bnrEsuz", "efl", "i"), long: longOpts(
	"quiet silent debug posix regexp-extended separate unbuffered null-data zero-terminated binary sandbox follow-symlinks help version",
	"expression file line-length", "in-place")}

var sedTool = scriptTool{grammar: sedGrammar, lang: "sed", script: "script", permutes: true,
	fileOpts: []string{"f", "file"}, inlineOpts: []string{"e", "expression"},
	runs: sedExec, how: "(the e command or flag)",
	opens: sedOpensFiles, which: "(r, R, w, W or the w flag of s)",
	commands: sedRuns}

// awkHandler and sedHandler are the tools' handlers.
var awkHandler, sedHandler handler = awkTool.handle, sedTool.handle

// scriptTools are the script tools by their language.
var scriptTools = map[string]*scriptTool{"awk": &awkTool, "sed": &sedTool}

// handle is the handler of the tool t.
func (t *scriptTool) handle(form []Word) step {
	name := form[0].Text
	p, operands := t.options(form)
	if p.problem != "" {
		return step{notes: []Note{{Kind: Unparsed, Text: name + ": " + p.problem + ", so the " + t.script + " it runs is not known"}}}
	}
	var st step
	var inline []string
	first := len(form) // the first word holding a script option
	for _, o := range p.opts {
		switch {
		case slices.Contains(t.inlineOpts, o.name):
			inline = append(inline, o.value)
		case slices.Contains(t.fileOpts, o.name):
			st.scripts = append(st.scripts, scriptRef{tool: t, name: name, file: o.value})
		case t.loads[o.name] != "":
			st.notes = append(st.notes, Note{Kind: LoadsCode, Text: name + " " + t.loads[o.name]})
			continue
		case o.name == "W" && !awkPlainW(o.value):
			st.notes = append(st.notes, Note{Kind: Unparsed, Text: name + " -W " + o.value + " is not an option the bridge reads, so the " + t.script + " it runs is not known"})
			continue
		default:
			continue
		}
		first = min(first, o.at)
	}
	// Without a script option the first operand is the script. A tool
	// that reads options after operands does not when POSIXLY_CORRECT is
	// set: then a script option after the first operand leaves it the
	// script. Where sed is BSD sed, -i takes the next word (the backup
	// suffix), so after a bare -i the operand after that is the script.
	if len(operands) > 0 && (first == len(form) || t.permutes && first > operands[0]) {
		candidates := operands[:1]
		if t.lang == "sed" && bsdSed && first == len(form) && len(operands) > 1 && bareOptionBefore(p, "i", operands[0]) {
			candidates = operands[:2]
		}
		for _, at := range candidates {
			if wd := form[at]; wd.Kind != Static {
				st.notes = append(st.notes, Note{Kind: NotStatic, Text: name + " " + t.script + " is not static: " + wd.String()})
			} else {
				inline = append(inline, wd.Text)
			}
		}
	}
	t.judge(&st, name, inline)
	return st
}

// bsdSed says the system's sed is BSD sed (macOS, the BSDs), whose -i
// takes the next word as its suffix: "sed -i .bak 'r .env' a.txt" runs
// the script 'r .env' there.
var bsdSed = runtime.GOOS == "darwin" || strings.HasSuffix(runtime.GOOS, "bsd")

// options reads the tool's options, after its operands too when it
// permutes, and returns them with the indexes of its operands.
func (t *scriptTool) options(form []Word) (parsed, []int) {
	var all parsed
	var operands []int
	for i := 1; i < len(form); {
		p := parseOptions(form, i, t.grammar)
		all.opts = append(all.opts, p.opts...)
		if p.problem != "" {
			all.problem = p.problem
			return all, operands
		}
		if p.dashdash || !t.permutes {
			for j := p.next; j < len(form); j++ {
				operands = append(operands, j)
			}
			break
		}
		if p.next >= len(form) {
			break
		}
		operands = append(operands, p.next)
		i = p.next + 1
	}
	return all, operands
}

// bareOptionBefore reports whether the short option name is given
// without a value in the word just before the word of index at.
func bareOptionBefore(p parsed, name string, at int) bool {
	for _, o := range p.opts {
		if o.name == name && !o.long && !o.has && o.at == at-1 {
			return true
		}
	}
	return false
}

// awkPlainW are the -W options of mawk and gawk that run nothing and
// take no file: "-W version", "-W interactive", "-W random=1".
func awkPlainW(v string) bool {
	plain := []string{"version", "dump", "help", "usage", "interactive", "posix_space", "random", "sprintf",
		"traditional", "posix", "lint", "re-interval", "characters-as-bytes", "sandbox", "optimize", "no-optimize",
		"copyright", "non-decimal-data", "use-lc-numeric", "csv", "bignum"}
	other := []string{"exec", "file", "source", "include", "load", "debug", "dump-variables", "profile", "pretty-print",
		"field-separator", "assign", "trace", "gen-pot", "persist", "lint-old"}
	for _, part := range strings.Split(v, ",") {
		n, _, _ := strings.Cut(part, "=")
		// mawk and gawk take a prefix: a prefix of any other option is
		// not known to be plain.
		if n == "" || slices.IndexFunc(other, func(o string) bool { return strings.HasPrefix(o, n) }) >= 0 ||
			slices.IndexFunc(plain, func(o string) bool { return strings.HasPrefix(o, n) }) < 0 {
			return false
		}
	}
	return true
}

// judge adds to st what the scripts run and open: a script that runs
// commands is noted and its commands are added as sh code of their own;
// one that opens files it names is noted.
func (t *scriptTool) judge(st *step, name string, scripts []string) {
	for _, s := range scripts {
		if t.runs(s) {
			st.notes = append(st.notes, Note{Kind: RunsCode, Text: name + " " + t.script + " runs commands " + t.how})
			t.addCommands(st, name, scripts)
			break
		}
	}
	for _, s := range scripts {
		if t.opens(s) {
			st.notes = append(st.notes, Note{Kind: OpensFiles, Text: name + " " + t.script + " opens files it names " + t.which + ", which the bridge does not decide as paths"})
			break
		}
	}
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
