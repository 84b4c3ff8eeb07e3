package governance

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A rule allowing a shell or source (Bash(bash:*), Bash(source:*)) vouches
// for the script it runs, not for a command the policy refuses: the agent
// writes "rm -rf x" into cleanup.sh with an edit the policy allows and asks
// to run "bash cleanup.sh", which deny: Bash(rm:*) must still refuse.
// scriptCommandsVerdict reads each file a command of the line runs as a
// shell script (a shell's script operand, the file source or . runs, the
// file a shell reads on its input, a program named by a path whose first
// line names a shell or no interpreter at all), found where eachScript
// finds the files a line runs as code, and decides its text as a line of
// its own, in the directory the script runs in, with the line decider:
// every command, wrapper, function body, alias, eval string, here-document
// and variable value it understands, the files its commands name and its
// redirections open. A verdict there from a deny rule
// denies the line; one from an ask or escalate rule, or from a deny rule a
// word computed at run time could match, asks about it, saying so. The
// rest (the default, a command it cannot read that no rule refuses) is the
// interpreter's rule to vouch for, so "bash scripts/test.sh" running "go
// test" stays allowed. Shell code the script runs that the bridge cannot
// read (a script named by a computed word, eval of a computed string, a
// shell reading a pipe) asks, since it may be a refused command. Scripts
// a script runs are read the same way, to maxScriptDepth, within a budget
// of files and bytes; past it, or where a file cannot be read whole, or the
// script may write the script it runs first, the line is asked about.

// maxScriptDepth bounds how deep scripts running scripts are read.
const maxScriptDepth = 8

// maxScriptFiles and maxScriptTotal bound the script files, and their
// bytes, one decision reads for their commands.
const (
	maxScriptFiles = 64
	maxScriptTotal = 4 << 20
)

// scriptLink is one script of a chain of scripts running scripts.
type scriptLink struct{ name, path string }

// scriptWalk is what one decision's reading of scripts shares.
type scriptWalk struct {
	files, bytes int
	top          string // the line's command that runs the first script
	found        *verdict
}

// scriptCommandsVerdict decides the commands of the shell scripts the
// request's line runs by the policy's restrictive rules (see above).
func (e *Engine) scriptCommandsVerdict(in *reqInfo) (verdict, bool) {
	if !e.refusesCommands(in) {
		return verdict{}, false
	}
	w := &scriptWalk{files: maxScriptFiles, bytes: maxScriptTotal}
	lines := e.scriptLines(in)
	// A shell of the line itself reading code the bridge cannot read ("cat
	// s.sh | bash", bash -- "$f") is no script it can decide either: where
	// a rule allows it, it is asked about.
	var advisories []string
	for _, a := range lines {
		for _, c := range a.Commands {
			why, ok := unseenShellCode(c)
			if !ok {
				why, ok = e.scriptDirUnknown(in, c)
			}
			if !ok {
				continue
			}
			if v, ok := e.decideCommand(in, c, &advisories); ok && v.value == Allow {
				w.found = &verdict{value: RequireApproval, ref: "script-commands",
					ruleTx: "require-approval for scripts whose commands the bridge cannot read (built-in)",
					reason: fmt.Sprintf("running %q: %s, so the bridge cannot tell whether it runs a command the policy refuses", strings.TrimSpace(c.Source), why)}
			}
		}
	}
	if v, ok := e.scriptsOf(in, lines, filepath.Clean(in.req.Cwd), nil, w); ok {
		return v, true
	}
	if v, ok := e.generateCommands(in, lines, w); ok {
		return v, true
	}
	if w.found != nil {
		return *w.found, true
	}
	return verdict{}, false
}

// refusesCommands reports whether a rule of the policy that applies to
// the request may refuse or ask about a command, a variable it sets or a
// path: with none, a script's commands get only what the interpreter's
// rule gives.
func (e *Engine) refusesCommands(in *reqInfo) bool {
	for _, sub := range []category{catCommand, catEnv, catRead, catWrite, catPath} {
		for _, r := range e.rulesFor(sub) {
			if r.value != Allow && !r.advisory && r.actionApplies(in.req.Action) {
				return true
			}
		}
	}
	return false
}

// scriptsOf decides the shell scripts the commands of lines (run in cwd)
// run; chain is the scripts running them. A deny ends the walk; an ask is
// kept in w.found, the strictest first.
func (e *Engine) scriptsOf(in *reqInfo, lines []*shellcmd.Analysis, cwd string, chain []scriptLink, w *scriptWalk) (verdict, bool) {
	// eachScript visits each file once, with the first command naming it
	// (a word of "printf x > s.sh" before "bash s.sh"): the command that
	// runs it as a shell script is looked for among all of lines'.
	return e.eachScript(in, lines, cwd, func(_ *shellcmd.Command, f, d, p string) (verdict, bool) {
		c, named, ok := runsAsShell(lines, f)
		if !ok {
			return verdict{}, false
		}
		if len(chain) == 0 {
			w.top = strings.TrimSpace(c.Source)
		}
		v, ok := e.scriptFileVerdict(in, lines, cwd, named, f, d, p, chain, w)
		switch {
		case !ok:
		case v.value == Deny:
			return v, true
		case w.found == nil || v.value.Stricter(w.found.value):
			w.found = &v
		}
		return verdict{}, false
	})
}

// runsAsShell returns the command of lines that runs the file f as a
// shell script: f is a shell's or source's script
// (Command.ShellScripts), as named or as PATH leads its name, or the
// program itself, named by a path or found where a PATH the line changes
// leads its name (named: run as a shell script only when its first line
// names a shell or nothing).
func runsAsShell(lines []*shellcmd.Analysis, f string) (c *shellcmd.Command, named, ok bool) {
	for _, a := range lines {
		for _, c := range a.Commands {
			for _, s := range c.ShellScripts {
				if s.Name.Kind != shellcmd.Static || s.Name.Text == "" {
					continue
				}
				n := s.Name.Text
				if f == n || !strings.Contains(n, "/") && strings.HasSuffix(f, "/"+n) {
					return c, false, true
				}
			}
			for _, form := range c.Forms {
				if form[0].Kind != shellcmd.Static || form[0].Text == "" {
					continue
				}
				// By its path, or by its name where a PATH the line
				// changes leads it (lookedUp: "PATH=tools:$PATH helper").
				n := form[0].Text
				if f == n && strings.Contains(f, "/") || !strings.Contains(n, "/") && strings.HasSuffix(f, "/"+n) {
					return c, true, true
				}
			}
		}
	}
	return nil, false, false
}

// scriptFileVerdict decides the shell script f at p (run in d by a
// command of lines, run in cwd) by its commands; named says it runs as a
// program named by a path.
func (e *Engine) scriptFileVerdict(in *reqInfo, lines []*shellcmd.Analysis, cwd string, named bool, f, d, p string, chain []scriptLink, w *scriptWalk) (verdict, bool) {
	for _, l := range chain {
		if l.path == p {
			return verdict{}, false // its commands are being decided
		}
	}
	who := chainText(chain, f)
	ask := func(format string, a ...any) (verdict, bool) {
		return verdict{value: RequireApproval, ref: "script-commands",
			ruleTx: "require-approval for scripts whose commands the bridge cannot read (built-in)",
			reason: fmt.Sprintf("running %q: %s %s, so the bridge cannot tell whether it runs a command the policy refuses", w.top, who, fmt.Sprintf(format, a...))}, true
	}
	if len(chain) >= maxScriptDepth {
		return ask("is a script run by scripts nested more than %d deep", maxScriptDepth)
	}
	if t := e.flight.busy(p); t != "" {
		return ask("may still be being written (%s)", t)
	}
	if len(chain) > 0 {
		if by, ok := e.lineWritesScript(in, lines, p, cwd); ok {
			return ask("may be written by %q before it runs", by)
		}
	}
	resolved, err := filepath.EvalSymlinks(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return verdict{}, false // nothing runs
	case err != nil:
		return ask("cannot be read now (%v)", err)
	case !in.insideRoots(resolved):
		return verdict{}, false // not the agent's to write
	}
	if named {
		// A program run by its path: its "#!" line is a command the
		// kernel runs (#!/usr/bin/env -S sh -c 'rm x'), and only a
		// shell's file, or one with no interpreter, is shell code.
		head, why := readHead(resolved, shebangBytes)
		switch {
		case why == "it is not a regular file":
			return verdict{}, false
		case why != "":
			return ask("cannot be read: %s", why)
		}
		if line, ok := shebangLine(head, f); ok {
			sub := scriptRequest(in, line, d)
			if v, ok := e.decideScriptLines(sub, sub.memo.lines, chainText(chain, f)+"'s #! line", w); ok {
				return v, true
			}
		}
		if !shellScriptText(head) {
			return verdict{}, false
		}
	}
	text, why := readTextFile(resolved)
	switch {
	case why == "it is not a regular file":
		return verdict{}, false
	case why != "":
		return ask("cannot be read: %s", why)
	case strings.IndexByte(text, 0) >= 0:
		return ask("holds a NUL byte, around which a shell runs what the bridge does not parse")
	}
	w.files--
	w.bytes -= len(text)
	if w.files < 0 || w.bytes < 0 {
		return ask("is past the %d scripts (%d MiB) the bridge reads for one line", maxScriptFiles, maxScriptTotal>>20)
	}
	sub := scriptRequest(in, text, d)
	chain = append(chain[:len(chain):len(chain)], scriptLink{name: f, path: p})
	sublines := e.scriptLines(sub)
	if v, ok := e.decideScriptLines(sub, sublines, chainText(chain, ""), w); ok {
		return v, true
	}
	return e.scriptsOf(sub, sublines, d, chain, w)
}

// scriptRequest returns in as the request to run text, a script's text,
// in dir: decided afresh (a memo of its own), with no paths, arguments or
// links of the line's.
func scriptRequest(in *reqInfo, text, dir string) *reqInfo {
	sub := *in
	sub.req.Command, sub.req.Argv, sub.req.Cwd, sub.req.Paths = text, nil, dir, nil
	sub.subjects, sub.looked, sub.made, sub.reserved = false, nil, nil, 0
	m := &decisionMemo{analyses: in.memo.analysesOrNil()}
	m.lines = []*shellcmd.Analysis{shellcmd.Analyze(text, shellcmd.Options{Dir: dir, Script: true})}
	m.linesRead = true
	sub.memo = m
	return &sub
}

// analysesOrNil returns the engine's analyses m keeps, nil for no memo.
func (m *decisionMemo) analysesOrNil() *analyses {
	if m == nil {
		return nil
	}
	return m.analyses
}

// decideScriptLines decides the commands, variables and problems of a
// script's lines (the request sub) by the policy; who names the script
// ("s.sh runs t.sh, which"). A deny ends it; an ask is kept in w.found.
func (e *Engine) decideScriptLines(sub *reqInfo, lines []*shellcmd.Analysis, who string, w *scriptWalk) (verdict, bool) {
	var advisories []string
	var denied *verdict
	keep := func(v verdict) {
		switch {
		case denied != nil:
		case v.value == Deny:
			denied = &v
		case w.found == nil || v.value.Stricter(w.found.value):
			w.found = &v
		}
	}
	weigh := func(v verdict, source string) {
		if v.rule == nil || v.rule.value == Allow || v.value == Allow {
			return // the interpreter's rule vouches for it
		}
		out := verdict{value: v.value, rule: v.rule, ref: v.ref, ruleTx: v.ruleTx}
		if v.value == v.rule.value && source != "" {
			out.reason = fmt.Sprintf("running %q: %s runs %q, %s by %s", w.top, who, source, pastTense(v.value), v.rule.text)
		} else {
			out.reason = fmt.Sprintf("running %q: %s runs %s", w.top, who, strings.TrimPrefix(v.text(), "running "))
		}
		keep(out)
	}
	unread := func(source, why string) {
		keep(verdict{value: RequireApproval, ref: "script-commands",
			ruleTx: "require-approval for scripts whose commands the bridge cannot read (built-in)",
			reason: fmt.Sprintf("running %q: %s runs %q: %s, so the bridge cannot tell whether it runs a command the policy refuses", w.top, who, source, why)})
	}
	for _, a := range lines {
		for _, p := range a.Problems {
			keep(verdict{value: RequireApproval, ref: "script-commands",
				ruleTx: "require-approval for scripts whose commands the bridge cannot read (built-in)",
				reason: fmt.Sprintf("running %q: %s: %s, so the bridge cannot tell whether it runs a command the policy refuses", w.top, who, p)})
		}
		for _, c := range a.Commands {
			if v, ok := e.decideCommand(sub, c, &advisories); ok {
				weigh(v, c.Source)
			}
			// The files it names, as the line's own command's are:
			// written under the interpreter's rule (vouched), a rule
			// naming one still decides it.
			for _, arg := range commandArgs(c) {
				arg.vouched = true
				if v, ok := e.decideArg(sub, arg, c.Dir, &advisories); ok {
					weigh(v, c.Source)
				}
			}
			if v, ok := e.treeReadVerdict(sub, c); ok {
				weigh(v, c.Source)
			}
			if why, ok := unseenShellCode(c); ok {
				unread(c.Source, why)
			} else if why, ok := e.scriptDirUnknown(sub, c); ok {
				unread(c.Source, why)
			}
		}
		for _, r := range a.Redirects {
			if v, ok := e.decideRedirect(sub, r, &advisories); ok {
				op := ">"
				switch {
				case r.Read && r.Write:
					op = "<>"
				case r.Read:
					op = "<"
				}
				weigh(v, op+" "+r.Target.Text)
			}
		}
		for _, as := range a.Assignments {
			e.decideVariable(sub, as.Name, as.Value, as.Static, as.Dir, &advisories, func(v verdict, _ string, _ []string) {
				weigh(v, "")
			})
		}
		if denied != nil {
			return *denied, true
		}
	}
	return verdict{}, false
}

// unseenShellCode returns why c runs shell code the bridge cannot read,
// which may be a command the policy refuses: a word the command's meaning
// hangs on computed at run time, a form it could not read, or a shell or
// source running code from where the line does not show (a pipe, a script
// named by a computed word). A script it names is read (scriptsOf), and
// an interpreter's own code (python3 -c) is its rule's to vouch for.
func unseenShellCode(c *shellcmd.Command) (string, bool) {
	for _, n := range c.Notes {
		switch n.Kind {
		case shellcmd.NotStatic, shellcmd.Unparsed:
			return n.Text, true
		case shellcmd.RunsCode:
			if n.Form >= len(c.Forms) || !shellForm(c.Forms[n.Form]) {
				continue
			}
			read := false
			for _, s := range c.ShellScripts {
				read = read || s.Form == n.Form && s.Name.Kind == shellcmd.Static
			}
			if !read {
				return n.Text, true
			}
		}
	}
	return "", false
}

// scriptDirUnknown returns why the bridge cannot tell which file c runs
// as a shell script: it names one by a relative name in a directory known
// only when the line runs ("cd \"$1\"; bash t.sh").
func (e *Engine) scriptDirUnknown(in *reqInfo, c *shellcmd.Command) (string, bool) {
	if !c.Dir.Moved() {
		return "", false
	}
	relative := false
	for _, s := range c.ShellScripts {
		relative = relative || s.Name.Kind == shellcmd.Static && !filepath.IsAbs(s.Name.Text)
	}
	for _, form := range c.Forms {
		n := form[0].Text
		relative = relative || form[0].Kind == shellcmd.Static && strings.Contains(n, "/") && !filepath.IsAbs(n)
	}
	if !relative {
		return "", false
	}
	if _, unknown := e.commandDirs(in, c.Dir); !unknown {
		return "", false
	}
	return "it runs a script named relative to a directory known only when the line runs", true
}

// shellForm reports whether form runs a shell, source or eval, whose code
// is shell commands.
func shellForm(form []shellcmd.Word) bool {
	if form[0].Kind != shellcmd.Static {
		return false
	}
	switch n := filepath.Base(form[0].Text); n {
	case "source", ".", "eval":
		return true
	default:
		return shellNames[n]
	}
}

// chainText names the last script of chain as run by those before it
// ("s.sh runs t.sh, which"), or f run by them when f is given.
func chainText(chain []scriptLink, f string) string {
	var b strings.Builder
	for i, l := range chain {
		if i > 0 {
			b.WriteString(" runs " + l.name + ", which")
			continue
		}
		b.WriteString(l.name)
	}
	switch {
	case f == "":
	case len(chain) == 0:
		b.WriteString(f)
	default:
		b.WriteString(" runs " + f + ", which")
	}
	return b.String()
}
