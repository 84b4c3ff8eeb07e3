package governance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// decideCommands decides every command, assignment and problem of the
// request's command line(s); it returns the decisions of the files the
// commands name, for the caller to consider last.
func (e *Engine) decideCommands(in *reqInfo, advisories *[]string, consider func(verdict, string, []string)) (later []func()) {
	if strings.TrimSpace(in.req.Command) == "" && len(in.req.Argv) == 0 {
		return nil // not known: only rules for every command apply
	}
	// The keys of the commands reported: a list while a line has run few,
	// a set past that.
	var seen []string
	var seenSet map[string]bool
	kept := in.keptLine()
	// What the request's lines and the script files they run do with the
	// files they redirect: a descriptor is inherited by what a line runs,
	// so a script's "echo x > /dev/stdin" writes what the line redirects
	// into it. Their read redirections are decided as writes last, when
	// every command and redirection has been seen.
	var given lineGiven
	var reads []shellcmd.Redirect
	for i, a := range e.scriptLines(in) {
		vals := lineValues(a, in.req.Env)
		for _, p := range a.Problems {
			consider(e.decideLineProblem(a.Line, p), fmt.Sprintf("reading %q", a.Line), nil)
		}
		for j, c := range a.Commands {
			// What the engine kept of the command line's own commands
			// (the first analysis), if it kept it.
			var f *commandFacts
			// A command whose script files were judged (scriptLines) is
			// not the one kept: its notes are the files'.
			if i == 0 && kept != nil && j < len(kept.cmds) && kept.a.Commands[j] == c {
				f = &kept.cmds[j]
			}
			var what, key string
			var details []string
			if f != nil {
				what, key = f.what, f.key
				if in.subjects {
					// A copy: the details go out in the decision's subjects.
					details = slices.Clone(f.details)
				}
			} else {
				what, details = "running "+strconv.Quote(c.Source), describeCommand(c) // fmt's %q
				if i == 1 {
					what += " (as argv, the way a client that execs it runs it)"
				}
				key = commandKey(what, details, c)
			}
			// The readings of one request often agree: report each once.
			if seenSet[key] || seenSet == nil && slices.Contains(seen, key) {
				continue
			}
			if seenSet != nil {
				seenSet[key] = true
			} else if seen = append(seen, key); len(seen) > 16 {
				seenSet = make(map[string]bool, 2*len(seen))
				for _, k := range seen {
					seenSet[k] = true
				}
			}
			var named []*shellcmd.Word
			vouched := false
			if v, ok := e.decideCommandWith(in, c, f, advisories); ok {
				consider(v, what, details)
				named = e.ruleNamedWords(in, v, c)
				vouched = v.value == Allow && v.rule != nil
			}
			var args []argWord
			if f != nil {
				args = f.args
			} else {
				args = commandArgs(c)
			}
			// A mktemp that creates its file in the TMPDIR the line sets.
			args = append(slices.Clip(args), mktempLineTMPDIR(c, a.Assignments)...)
			args = withValueNames(args, vals)
			given.note(c, args, vouched)
			if v, ok := e.decideArgsWith(in, c, args, named, vouched, advisories); ok {
				// After the protected files: when both deny, the
				// protected file is the reason.
				w := what
				later = append(later, func() { consider(v, "opening the files "+w+" names", nil) })
			}
			v, ok, written := e.configFileVerdict(in, c, len(a.Commands) > 1, advisories)
			if ok {
				w := what
				later = append(later, func() { consider(v, "the options "+w+" takes from a configuration file", nil) })
			}
			for _, wa := range written {
				given.reopen(wa.text)
			}
			if v, ok := e.tscProjectVerdict(in, c, len(a.Commands) > 1, advisories); ok {
				w := what
				later = append(later, func() { consider(v, "the project configuration "+w+" compiles", nil) })
			}
			if v, ok := e.npmrcWritesVerdict(in, c, advisories); ok {
				w := what
				later = append(later, func() { consider(v, "the directories the project's .npmrc has "+w+" write into", nil) })
			}
			if v, ok := e.unpackVerdict(in, c, len(a.Commands) > 1, advisories); ok {
				w := what
				later = append(later, func() { consider(v, "writing the files "+w+" extracts", nil) })
			}
			if v, ok := e.storedNameVerdict(in, c, len(a.Commands) > 1, advisories); ok {
				w := what
				later = append(later, func() { consider(v, "writing the files "+w+" decompresses under the names they store", nil) })
			}
			if v, ok := e.treeWriteVerdict(in, c, len(a.Commands) > 1); ok {
				w := what
				later = append(later, func() { consider(v, "changing the files "+w+" changes without naming them", nil) })
			}
			if v, ok := e.linkWriteVerdict(in, c, len(a.Commands) > 1); ok {
				w := what
				later = append(later, func() { consider(v, "writing through the links "+w+" makes", nil) })
			}
			if v, ok := e.gitLinkWriteVerdict(in, a, c); ok {
				w := what
				later = append(later, func() { consider(v, "writing through the links "+w+" may put in place", nil) })
			}
			if v, ok := e.madeLinksVerdict(in, c); ok {
				consider(v, what, nil)
			}
			if v, ok := e.gitBareVerdict(in, c); ok {
				consider(v, what, nil)
			}
		}
		for _, as := range a.Assignments {
			e.decideVariable(in, as.Name, as.Value, as.Static, as.Dir, advisories, consider)
		}
		given.redirects(a)
		for _, r := range a.Redirects {
			if v, ok := e.decideRedirect(in, r, advisories); ok {
				consider(v, "opening "+r.Target.Text+" ("+redirectVia(r)+")", nil)
			}
			for _, t := range valueRedirects(r, vals) {
				if v, ok := e.decideRedirect(in, t, advisories); ok {
					consider(v, "opening "+r.Target.Text+" ("+redirectVia(r)+"), with the values the line gives its variables", nil)
				}
			}
			if r.Read && !r.Write {
				reads = append(reads, r)
			}
		}
	}
	for _, r := range reads {
		if v, ok := e.decideRedirectGiven(in, r, &given, advisories); ok {
			consider(v, "opening "+r.Target.Text+" ("+redirectVia(r)+") for writing", nil)
		}
	}
	return later
}

// decideVariable decides setting one variable where the line is in dir,
// the files its value names, and any command its value holds that bash
// may run when it evaluates the value again.
func (e *Engine) decideVariable(in *reqInfo, name, value string, static bool, dir shellcmd.Dir, advisories *[]string, consider func(verdict, string, []string)) {
	v, ok := e.decideEnv(in, name, advisories)
	if ok && v.rule == nil && name == "GOFLAGS" && static && shellcmd.GoFlagsPlain(value) {
		// GOFLAGS runs code through -toolexec and its kin; a value that
		// gives none of them is a plain setting.
		ok = false
	}
	if ok {
		consider(v, "setting "+name, nil)
	} else if why := shellcmd.LocaleCharset(name, value, static); why != "" {
		consider(verdict{value: RequireApproval, ref: "dangerous-env", ruleTx: "require-approval for environment variables that change what commands run (built-in; allow with Env(NAME))",
			reason: fmt.Sprintf("setting %s: %s", name, why)}, "setting "+name, nil)
	}
	// A rule allowing the variable vouches for where its value leads,
	// not for a file a rule refuses.
	vouched := ok && v.value == Allow && v.rule != nil
	if v, ok := e.decideEnvValue(in, name, value, static, vouched, dir, advisories); ok {
		consider(v, "opening the files the value of "+name+" names", nil)
	}
	if !static {
		return
	}
	if a := shellcmd.AssignmentCode(value, shellcmd.Options{Dir: in.req.Cwd}); a != nil {
		for _, c := range a.Commands {
			if v, ok := e.decideCommand(in, c, advisories); ok {
				consider(v, fmt.Sprintf("running %q (in the value of %s)", c.Source, name), describeCommand(c))
			}
		}
	}
	// A program runs the value of EDITOR, PAGER, a *_COMMAND... as a
	// command line: its commands are decided as the line's own, so a
	// rule refusing rm refuses EDITOR='rm x' whatever the person approves.
	if shellcmd.EnvValueIsCommandLine(name) {
		e.decideValueLine(in, shellcmd.Analyze(value, shellcmd.Options{Dir: in.req.Cwd}), "the command line "+name+" holds", advisories, consider)
		return
	}
	// A value of any other name that reads as a command line may be one
	// (make runs every variable a recipe expands: "CC='rm x;' make a"):
	// its commands are decided too (shellcmd.ValueCode).
	if t, ok := shellcmd.ValueCode(value); ok {
		e.decideValueLine(in, shellcmd.Analyze(t, shellcmd.Options{Dir: in.req.Cwd}), "the value of "+name+", which a program may run as a command line", advisories, consider)
	}
}

// decideTerminalDir denies a terminal whose working directory is outside
// the workspace roots.
func (e *Engine) decideTerminalDir(in *reqInfo) verdict {
	what := "running in " + in.req.Cwd
	forms, refusal := in.pathForms(absPath(in.req.Cwd, "", e.home))
	if refusal != nil {
		return verdict{value: Deny, ref: refusal.ref, ruleTx: refusalRules[refusal.ref], reason: fmt.Sprintf("%s: %s", what, refusal.why)}
	}
	for _, form := range forms {
		if !in.insideRoots(form) {
			return verdict{value: Deny, ref: "workspace-roots", ruleTx: "deny paths outside the workspace roots (built-in)",
				reason: fmt.Sprintf("%s: %s is outside the workspace roots %s", what, form, strings.Join(in.roots, ", "))}
		}
	}
	return verdict{value: Allow, ref: "workspace-roots", ruleTx: "allow terminals inside the workspace roots (built-in)",
		reason: what + ": inside the workspace roots"}
}
