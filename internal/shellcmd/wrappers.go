package shellcmd

import (
	"slices"
	"strings"
)

// handlers maps the programs that run another command to their grammars.
// Interpreters are in interpreters.go; shells in shells.go.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"env":       envHandler,
		"sudo":      withOptions(sudoGrammar, sudoRuns),
		"doas":      withOptions(doasGrammar, doasRuns),
		"timeout":   operandsThen(grammar{short: shortOpts("fpv", "ks", ""), long: longOpts("foreground preserve-status verbose help version", "kill-after signal", "")}, 1),
		"nice":      niceHandler,
		"ionice":    withOptions(ioniceGrammar, ioniceRuns),
		"nohup":     operandsThen(grammar{long: longOpts("help version", "", "")}, 0),
		"stdbuf":    operandsThen(grammar{short: shortOpts("", "ioe", ""), long: longOpts("help version", "input output error", "")}, 0),
		"setsid":    operandsThen(grammar{short: shortOpts("cfw", "", ""), long: longOpts("ctty fork wait help version", "", "")}, 0),
		"time":      operandsThen(grammar{short: shortOpts("apvqV", "fo", ""), long: longOpts("append portability verbose quiet help version", "format output", "")}, 0),
		"exec":      withOptions(execGrammar, execRuns),
		"builtin":   operandsThen(grammar{}, 0),
		"noglob":    operandsThen(grammar{}, 0), // zsh's precommand modifiers
		"nocorrect": operandsThen(grammar{}, 0),
		"-":         operandsThen(grammar{}, 0),
		"repeat":    operandsThen(grammar{}, 1), // zsh: repeat N command
		"command":   withOptions(commandGrammar, commandRuns),
		"flock":     withOptions(flockGrammar, flockRuns),
		"script":    withOptions(scriptGrammar, scriptRuns),
		"su":        suHandler,
		"runuser":   suHandler,
		"sg":        suHandler,
		"xargs":     withOptions(xargsGrammar, xargsRuns),
		"find":      findHandler,
		"parallel":  parallelHandler,
		"watch":     withOptions(watchGrammar, watchRuns),
		"busybox":   busyboxHandler,
		"toybox":    busyboxHandler,
		"coreutils": coreutilsHandler,
		"bfs":       sameAs("find"),
		"fd":        fdHandler,
		"fdfind":    fdHandler,
		"chroot":    withOptions(chrootGrammar, chrootRuns),
		"eval":      evalHandler,
		"source":    sourceHandler,
		".":         sourceHandler,
		"trap":      trapHandler,
		"alias":     aliasHandler,
		"export":    declHandler,
		"readonly":  declHandler,
		"declare":   declHandler,
		"typeset":   declHandler,
		"local":     declHandler,
		"read":      namesHandler(grammar{short: shortOpts("ers", "adinNptu", "")}),
		"getopts":   namesHandler(grammar{}),
		"mapfile":   mapfileHandler,
		"readarray": mapfileHandler,
		"printf":    printfHandler,
		"compgen":   completionHandler,
		"complete":  completionHandler,
		"bind":      callbackHandler("x"),
		"enable":    callbackHandler("f"),
		"hash":      hashHandler,
		"git":       gitHandler,
		"npm":       npmHandler,
		"pee":       peeHandler,
		"mispipe":   mispipeHandler,
		"socat":     socatHandler,
		"ncat":      ncatHandler,
		"nc":        ncatHandler,
		"netcat":    ncatHandler,
		"fc": func(form []Word) step {
			return step{notes: []Note{{Kind: RunsCode, Text: "fc runs commands from the shell history"}}}
		},
		"history": historyHandler,
	}
	for _, name := range strings.Fields(unmodelledWrappers) {
		handlers[name] = unmodelledHandler
	}
	for _, name := range strings.Fields(shellNames) {
		handlers[name] = shellHandler(name)
	}
	for _, name := range strings.Fields(zshFilesBuiltins) {
		handlers["zf_"+name] = sameAs(name)
	}
	handlers["zargs"] = zargsHandler
	handlers["zpty"] = zptyHandler
	handlers["autoload"] = autoloadHandler
	handlers["r"] = func(form []Word) step { // zsh's r is fc -e -
		return step{notes: []Note{{Kind: RunsCode, Text: "zsh's r runs a command from the shell history again"}}}
	}
	for _, name := range strings.Fields(gnuPrefixed) {
		if handlers["g"+name] == nil {
			handlers["g"+name] = sameAs(name)
		}
		if handlers["uu-"+name] == nil {
			handlers["uu-"+name] = sameAs(name)
		}
	}
}

// fdHandler: fd (fdfind on Debian) runs the command after -x/--exec once
// per file found, and the one after -X/--exec-batch once for them all;
// each ends at a ";" word or at the end of the line. A short option
// cluster holding x or X is taken for one too, and {} placeholders are
// file names known only when it runs.
func fdHandler(form []Word) step {
	st := step{}
	var runs [][]Word
	for i := 1; i < len(form); i++ {
		wd := form[i]
		if wd.Kind != Static {
			continue
		}
		t := wd.Text
		var cmd []Word
		switch {
		case t == "--exec" || t == "--exec-batch" || !strings.HasPrefix(t, "--") && strings.HasPrefix(t, "-") && strings.ContainsAny(t, "xX"):
		case strings.HasPrefix(t, "--exec=") || strings.HasPrefix(t, "--exec-batch="):
			_, v, _ := strings.Cut(t, "=")
			cmd = append(cmd, Word{Kind: Static, Text: v})
		case t == "--base-directory" || strings.HasPrefix(t, "--base-directory="):
			st.chdir = "fd --base-directory runs its commands in another directory"
			continue
		default:
			continue
		}
		runs, i = appendRun(runs, cmd, form, i, fdEnds, "{", "file names fd substitutes")
	}
	st.runAll(runs)
	return st
}

// fdEnds and findEnds are the words that end the command an -exec
// option runs.
var (
	fdEnds   = []string{";"}
	findEnds = []string{";", "+"}
)

// appendRun adds to runs the command an -exec style option at form[i]
// runs: cmd (words the option itself gave) and the words after form[i]
// up to a static word in ends or the end of the line. A word holding
// mark is one the program replaces with file names, so it is Dynamic
// with the reason why. An empty command adds nothing. It returns runs
// and the index of the word that ended the command.
func appendRun(runs [][]Word, cmd, form []Word, i int, ends []string, mark, why string) ([][]Word, int) {
	j := i + 1
	for ; j < len(form) && !(form[j].Kind == Static && slices.Contains(ends, form[j].Text)); j++ {
		w := form[j]
		if strings.Contains(w.Text, mark) {
			w = Word{Kind: Dynamic, Text: w.Text, Why: why}
		}
		cmd = append(cmd, w)
	}
	if len(cmd) > 0 {
		runs = append(runs, cmd)
	}
	return runs, j
}

// runAll makes the first of runs the command st runs next and the rest
// its others.
func (st *step) runAll(runs [][]Word) {
	if len(runs) > 0 {
		st.next = runs[0]
		st.others = runs[1:]
	}
}

// unmodelledWrappers run a command given after options this package does
// not model: every later word is tried as the command, and the command
// needs approval.
const unmodelledWrappers = "strace ltrace valgrind unshare nsenter firejail systemd-run prlimit chrt taskset numactl " +
	"cpulimit torsocks proxychains proxychains4 fakeroot eatmydata unbuffer catchsegv faketime entr caffeinate rlwrap " +
	"ssh-agent dbus-run-session xvfb-run pkexec tsp nq mpirun srun trickle daemonize setpriv capsh gdb lldb perf " +
	"ts-node npx bunx pnpx uvx pipx dotenv direnv with-contenv chpst softlimit setuidgid envdir s6-setuidgid " +
	"tmux screen xterm gnome-terminal konsole x-terminal-emulator dtach abduco nohup-wrapper daemon " +
	"hyperfine watchexec concurrently nodemon chronic ifne cross-env env-cmd " +
	"op doppler aws-vault infisical dotenvx chamber envchain summon sops teller " +
	"setarch linux32 linux64 i386 x86_64 uname26 arch sem schroot torify runcon sandbox-exec"

// longOpts builds a long option table from space-separated names without
// an argument, with a required one, with an optional attached one.
func longOpts(flags, withArg, optArg string) map[string]argKind {
	m := map[string]argKind{}
	for _, f := range strings.Fields(flags) {
		m[f] = noArg
	}
	for _, f := range strings.Fields(withArg) {
		m[f] = requiredArg
	}
	for _, f := range strings.Fields(optArg) {
		m[f] = optionalArg
	}
	return m
}

// problemNotes turns an option problem into a note, and tries every later
// static word as the command it may run.
func problemStep(form []Word, p parsed) step {
	st := step{notes: []Note{{Kind: Unparsed, Text: form[0].Text + ": " + p.problem}}}
	for i := max(p.next, 1); i < len(form) && len(st.others) < 8; i++ {
		if form[i].Kind == Static && !strings.HasPrefix(form[i].Text, "-") {
			st.others = append(st.others, form[i:])
		}
	}
	// A word with a blank or an operator in it may be a shell string the
	// program runs (tmux new 'cmd', xterm -e 'cmd').
	for i := max(p.next, 1); i < len(form) && len(st.shell) < 8; i++ {
		if form[i].Kind == Static && strings.ContainsAny(form[i].Text, " \t\n;&|`$()<>") {
			st.shell = append(st.shell, shellRun{word: form[i], langs: dialectsOf("sh")})
		}
	}
	return st
}

// operandsThen handles a wrapper that takes options, then n operands
// (timeout's DURATION), then the command.
func operandsThen(g grammar, n int) handler {
	return withOptions(g, func(form []Word, p parsed) step {
		for i := p.next; i < p.next+n && i < len(form); i++ {
			if form[i].Kind != Static {
				return step{notes: []Note{{Kind: NotStatic, Text: form[0].Text + " operand is not static: " + form[i].String()}}, others: [][]Word{rest(form, i+1)}}
			}
		}
		return step{next: rest(form, p.next+n)}
	})
}

// withOptions reads a wrapper's options by g and hands them to runs, which
// says what the wrapper runs; options that do not parse fail closed
// (problemStep) before runs sees them.
func withOptions(g grammar, runs func(form []Word, p parsed) step) handler {
	return func(form []Word) step {
		p := parseOptions(form, 1, g)
		if p.problem != "" {
			return problemStep(form, p)
		}
		return runs(form, p)
	}
}

// unmodelledHandler: options not modelled; fail closed.
func unmodelledHandler(form []Word) step {
	return problemStep(form, parsed{next: 1, problem: "its options are not modelled, so the command it runs is not known"})
}

// assignments reads NAME=VALUE words from form[i:], as env and sudo take
// them before the command; it returns the index after them.
func assignments(form []Word, i int, st *step, anyName bool) int {
	for ; i < len(form); i++ {
		wd := form[i]
		if wd.Kind == Dynamic && strings.Contains(wd.Text, "=") {
			st.notes = append(st.notes, Note{Kind: NotStatic, Text: "an assignment is not static: " + wd.String()})
			a := Assignment{Name: wd.Text}
			if namedAssignment(wd) { // PATH=$PATH: sets PATH, to a value known when it runs
				a.Name, a.Value, _ = strings.Cut(wd.Text, "=")
			}
			st.assigns = append(st.assigns, a)
			continue
		}
		// env takes any word with "=" as NAME=VALUE (BASH_FUNC_f%%=...).
		if wd.Kind != Static || !(anyName && strings.IndexByte(wd.Text, '=') > 0 || assignmentWord(wd.Text)) {
			return i
		}
		name, value, _ := strings.Cut(wd.Text, "=")
		st.assigns = append(st.assigns, Assignment{Name: name, Value: value, Static: true})
	}
	return i
}

var envGrammar = grammar{short: shortOpts("i0v", "uCSa", ""), long: longOpts("ignore-environment null debug list-signal-handling help version",
	"unset chdir split-string argv0", "block-signal default-signal ignore-signal")}

func envRuns(form []Word, p parsed) step {
	st := step{}
	if _, ok := p.value("C", "chdir"); ok {
		st.chdir = "env -C runs the command in another directory"
	}
	i := p.next
	if i < len(form) && form[i].Kind == Static && form[i].Text == "-" {
		i++
	}
	i = assignments(form, i, &st, true)
	if s, ok := p.value("S", "split-string"); ok {
		// env -S splits its string into words (quotes and ${VAR} as a
		// shell would) and reads them as its own arguments, options
		// among them (-S '-i make'), then the remaining operands.
		text := Word{Kind: Static, Text: "env " + s}
		if r := joined(form, i); r.Text != "" {
			text.Text += " " + r.Text
			text.Kind, text.Why = r.Kind, r.Why
		}
		if name, ok := p.value("a", "argv0"); ok {
			// The string's command is started under that name
			// (argv0.go): its words are read with the option again.
			text.Text = "env --argv0=" + singleQuoted([]string{name}) + " " + text.Text[len("env "):]
		}
		st.shell = append(st.shell, shellRun{word: text, langs: dialectsOf("bash")})
		return st
	}
	st.next = rest(form, i)
	if name, ok := p.value("a", "argv0"); ok {
		st.others = startedAs(name, st.next)
	}
	return st
}

var sudoGrammar = grammar{short: shortOpts("ABbEeHhiKklnPSsVv", "CDgpRrTtUua", ""), long: longOpts(
	"askpass background bell edit help list login non-interactive preserve-groups remove-timestamp reset-timestamp set-home shell stdin validate version",
	"chdir close-from chroot command-timeout group host other-user prompt role type user", "preserve-env")}

func sudoRuns(form []Word, p parsed) step {
	st := step{notes: []Note{asAnotherUser(form)}}
	if _, ok := p.value("D", "chdir"); ok {
		st.chdir = form[0].Text + " -D runs the command in another directory"
	}
	if p.has("e", "edit") {
		return st // sudoedit: edits the named files
	}
	i := assignments(form, p.next, &st, true)
	if p.has("s", "shell", "i", "login") {
		if i >= len(form) {
			st.notes = append(st.notes, Note{Kind: RunsCode, Text: form[0].Text + " opens a shell"})
			return st
		}
		st.shell = append(st.shell, shellRun{word: joined(form, i), langs: dialectsOf("sh")})
	}
	st.next = rest(form, i)
	return st
}

var doasGrammar = grammar{short: shortOpts("Lns", "Cu", "")}

func doasRuns(form []Word, p parsed) step {
	if p.has("s") || p.next >= len(form) && !p.has("L") {
		return step{notes: []Note{{Kind: RunsCode, Text: form[0].Text + " opens a shell"}}}
	}
	return step{next: rest(form, p.next), notes: []Note{asAnotherUser(form)}}
}

// asAnotherUser is the note on sudo and doas: a rule for the command they
// run does not vouch for running it as root; a rule that names them does.
func asAnotherUser(form []Word) Note {
	return Note{Kind: RunsCode, Text: form[0].Text + " runs the command as another user"}
}

func niceHandler(form []Word) step {
	start := 1
	if len(form) > 1 && form[1].Kind == Static && isAdjustment(form[1].Text) {
		start = 2 // nice -10 cmd: the historical form
	}
	return operandsThenFrom(form, start, grammar{short: shortOpts("", "n", ""), long: longOpts("help version", "adjustment", "")})
}

// isAdjustment reports whether s is nice's historical -N or --N.
func isAdjustment(s string) bool {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "-")
	t = strings.TrimPrefix(t, "+")
	if t == "" || !strings.HasPrefix(s, "-") {
		return false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func operandsThenFrom(form []Word, start int, g grammar) step {
	p := parseOptions(form, start, g)
	if p.problem != "" {
		return problemStep(form, p)
	}
	return step{next: rest(form, p.next)}
}

var ioniceGrammar = grammar{short: shortOpts("t", "cnpPu", ""), long: longOpts("ignore help version", "class classdata pid pgid uid", "")}

func ioniceRuns(form []Word, p parsed) step {
	if p.has("p", "P", "u", "pid", "pgid", "uid") {
		return step{} // sets the class of running processes
	}
	return step{next: rest(form, p.next)}
}

var commandGrammar = grammar{short: shortOpts("pvV", "", "")}

func commandRuns(form []Word, p parsed) step {
	if p.has("v", "V") {
		return step{} // describes the command, does not run it
	}
	return step{next: rest(form, p.next)}
}

var flockGrammar = grammar{short: shortOpts("sxenouFhV", "wEc", ""), long: longOpts(
	"shared exclusive unlock nonblock nb close no-fork verbose help version", "timeout wait conflict-exit-code command", "")}

func flockRuns(form []Word, p parsed) step {
	st := step{}
	if s, ok := p.value("c", "command"); ok {
		st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: s}, langs: dialectsOf("sh")})
		return st
	}
	i := p.next + 1 // the lock file or directory
	if i < len(form) && form[i].Kind == Static && (form[i].Text == "-c" || form[i].Text == "--command") {
		if i+1 < len(form) {
			st.shell = append(st.shell, shellRun{word: form[i+1], langs: dialectsOf("sh")})
		}
		return st
	}
	st.next = rest(form, i)
	return st
}

var scriptGrammar = grammar{short: shortOpts("aefqh", "cTIOBmEo", "t"), long: longOpts(
	"append return flush force quiet help version", "command echo log-timing log-in log-out log-io logging-format output-limit", "timing")}

func scriptRuns(form []Word, p parsed) step {
	if s, ok := p.value("c", "command"); ok {
		return step{shell: []shellRun{{word: Word{Kind: Static, Text: s}, langs: dialectsOf("sh")}}}
	}
	return step{notes: []Note{{Kind: RunsCode, Text: form[0].Text + " opens a shell"}}}
}

// suHandler: su, runuser and sg take -c STRING anywhere among their
// arguments (they permute them).
func suHandler(form []Word) step {
	st := step{}
	for i := 1; i < len(form); i++ {
		wd := form[i]
		if wd.Kind == Dynamic {
			st.notes = append(st.notes, Note{Kind: NotStatic, Text: form[0].Text + " argument is not static: " + wd.String()})
			continue
		}
		t := wd.Text
		for _, opt := range []string{"--command=", "--session-command="} {
			if v, ok := strings.CutPrefix(t, opt); ok {
				st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: v}, langs: dialectsOf("sh")})
			}
		}
		switch {
		case t == "-c" || t == "-C" || t == "--command" || t == "--session-command":
			if i+1 < len(form) {
				st.shell = append(st.shell, shellRun{word: form[i+1], langs: dialectsOf("sh")})
				i++
			}
		case strings.HasPrefix(t, "-c") && len(t) > 2 && !strings.HasPrefix(t, "--"):
			st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: t[2:]}, langs: dialectsOf("sh")})
		case t == "-u" && form[0].Text == "runuser" && i+2 < len(form):
			st.next = rest(form, i+2)
			if st.next[0].Kind == Static && st.next[0].Text == "--" {
				st.next = rest(form, i+3)
			}
			return st
		}
	}
	if len(st.shell) == 0 && form[0].Name() != "sg" {
		st.notes = append(st.notes, Note{Kind: RunsCode, Text: form[0].Text + " opens a shell"})
	}
	if len(st.shell) == 0 && form[0].Name() == "sg" && len(form) > 2 {
		st.shell = append(st.shell, shellRun{word: joined(form, 2), langs: dialectsOf("sh")})
	}
	return st
}

var xargsGrammar = grammar{short: shortOpts("0oprtx", "aEdILnPs", "eil"), long: longOpts(
	"null open-tty interactive no-run-if-empty show-limits verbose exit help version",
	"arg-file delimiter max-args max-procs process-slot-var max-chars", "eof replace max-lines")}

func xargsRuns(form []Word, p parsed) step {
	inner := rest(form, p.next)
	if inner == nil {
		inner = []Word{{Kind: Static, Text: "echo"}}
	}
	// The arguments come from its input.
	next := append(append([]Word(nil), inner...), Word{Kind: Dynamic, Text: "...", Why: "arguments xargs reads from its input"})
	return step{next: next}
}

func findHandler(form []Word) step {
	st := step{}
	var runs [][]Word
	for i := 1; i < len(form); i++ {
		wd := form[i]
		if wd.Kind == Dynamic {
			st.notes = append(st.notes, Note{Kind: NotStatic, Text: "find argument is not static: " + wd.String()})
			continue
		}
		switch wd.Text {
		case "-exec", "-execdir", "-ok", "-okdir":
			runs, i = appendRun(runs, nil, form, i, findEnds, "{}", "file names find substitutes")
		}
	}
	st.runAll(runs)
	return st
}

var parallelGrammar = grammar{short: shortOpts("kvquXmt0gre", "jSNnLIPdaC", ""), long: longOpts(
	"keep-order verbose quote dry-run null group ungroup line-buffer tag progress bar eta no-notice will-cite halt-on-error",
	"jobs max-args max-lines delimiter arg-file colsep halt joblog results tmpdir workdir sshlogin timeout", "")}

// parallelHandler: GNU parallel joins its command and each argument into a
// shell line and runs it with a shell. Without ::: it takes the arguments
// from its input, one a line, as xargs does: they are not known until the
// line runs; without a command either, each line of its input is a
// command, judged where the line shows it (a here-document).
func parallelHandler(form []Word) step {
	p := parseOptions(form, 1, parallelGrammar)
	st := step{}
	if p.problem != "" {
		st = problemStep(form, p)
	}
	sep := len(form)
	for i := p.next; i < len(form); i++ {
		if form[i].Kind == Static && strings.HasPrefix(form[i].Text, ":::") {
			sep = i
			break
		}
	}
	template := joined(form[:sep], p.next)
	if template.Text != "" {
		st.shell = append(st.shell, shellRun{word: template, langs: dialectsOf("sh")})
	}
	if sep == len(form) {
		// No ::: : parallel reads its input (or -a's and ::::'s files).
		if template.Text == "" {
			// Each line is a command of its own.
			st.stdinShell, st.stdinAsks = dialectsOf("sh"), true
			return st
		}
		st.notes = append(st.notes, Note{Kind: NotStatic, Text: "parallel adds to its command arguments it reads when it runs (from its input, or the files of -a or ::::), which the line does not show"})
		return st
	}
	for i := sep + 1; i < len(form); i++ {
		if form[i].Kind == Static && strings.HasPrefix(form[i].Text, ":::") {
			continue
		}
		line := form[i]
		if template.Text != "" {
			line = joined([]Word{template, form[i]}, 0)
		}
		st.shell = append(st.shell, shellRun{word: line, langs: dialectsOf("sh")})
	}
	return st
}

var watchGrammar = grammar{short: shortOpts("bcCeghprtwx", "nqs", "d"), long: longOpts(
	"beep color no-color errexit chgexit precise no-rerun no-title no-wrap exec help version", "equexit interval shotsdir", "differences")}

func watchRuns(form []Word, p parsed) step {
	if p.has("x", "exec") {
		return step{next: rest(form, p.next)}
	}
	if p.next >= len(form) {
		return step{}
	}
	return step{shell: []shellRun{{word: joined(form, p.next), langs: dialectsOf("sh")}}}
}

// coreutilsHandler: coreutils is a multi-call binary of the coreutils
// programs. uutils' (Ubuntu's coreutils) takes the program as its first
// operand, as busybox does ("coreutils mv a b"); GNU's single binary
// takes it as --coreutils-prog=NAME ("coreutils --coreutils-prog=mv a b").
func coreutilsHandler(form []Word) step {
	if len(form) > 1 && form[1].Kind == Static {
		for _, opt := range []string{"--coreutils-prog=", "--coreutils-prog-shebang="} {
			if name, ok := strings.CutPrefix(form[1].Text, opt); ok {
				return step{next: append([]Word{{Kind: Static, Text: name}}, form[2:]...)}
			}
		}
	}
	return busyboxHandler(form)
}

func busyboxHandler(form []Word) step {
	if len(form) > 1 && form[1].Kind == Static && strings.HasPrefix(form[1].Text, "-") {
		return step{}
	}
	return step{next: rest(form, 1)}
}

var chrootGrammar = grammar{long: longOpts("skip-chdir help version", "userspec groups", "")}

func chrootRuns(form []Word, p parsed) step {
	if p.next+1 >= len(form) {
		return step{notes: []Note{{Kind: RunsCode, Text: "chroot opens a shell"}}}
	}
	return step{next: rest(form, p.next+1)}
}
