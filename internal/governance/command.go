package governance

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A command line is judged through internal/shellcmd, which parses it with
// a real shell grammar and lists every simple command it runs, with its
// wrappers unwrapped. This file matches those commands against rules.

// matchLevel says how a rule matches a command.
type matchLevel uint8

const (
	noMatch matchLevel = iota
	// mayMatch: the command could match once a word computed at run time
	// is known.
	mayMatch
	// doesMatch: the command matches, or as a glob or brace expansion can
	// expand to a command that matches.
	doesMatch
)

// commandLines returns the analyses of what a request runs: its Command
// line, for a terminal request with arguments its Argv as a client that
// execs it runs it, and for every terminal request the shell line
// "(command args...)" a client that joins them unquoted runs (Zed's
// ShellBuilder runs $SHELL -i -c "(command args...) </dev/null").
func commandLines(req Request) []*shellcmd.Analysis {
	return commandLinesWith(req, shellcmd.Analyze)
}

// commandLinesWith is commandLines with analyze reading the Command line.
func commandLinesWith(req Request, analyze func(string, shellcmd.Options) *shellcmd.Analysis) []*shellcmd.Analysis {
	opts := shellcmd.Options{Dir: req.Cwd}
	out := []*shellcmd.Analysis{analyze(req.Command, opts)}
	switch {
	case len(req.Argv) > 1:
		line := strings.Join(req.Argv, " ")
		out = append(out,
			shellcmd.AnalyzeArgv(req.Argv, opts),
			shellcmd.Analyze(line, opts),
			shellcmd.Analyze("("+line+") </dev/null", opts))
	case len(req.Argv) == 1:
		// A command without args is wrapped too: a ')' in it closes
		// the subshell, and "echo hi) ; rm x #" runs rm x, the '#'
		// hiding the ')' Zed adds.
		out = append(out, shellcmd.Analyze("("+req.Argv[0]+") </dev/null", opts))
	}
	return out
}

// matchForm reports how p matches one form of a command. Restrictive
// rules (deny, ask, escalate) compare without regard to case, match a
// command named by path by its last element, and match what globs and
// brace expansions can expand to; a word computed at run time makes them
// mayMatch. An allow rule matches only words it can read.
//
// A restrictive rule also matches a form that means what its words do,
// spelled otherwise (ruleMeaning).
func (p *commandPattern) matchForm(form []shellcmd.Word, restrictive bool) matchLevel {
	if p.all {
		return doesMatch
	}
	if p.glob {
		return p.matchGlobForm(form, restrictive)
	}
	l := p.matchWords(form, restrictive)
	if restrictive && l < doesMatch && p.meaning != nil && len(form) > 0 && form[0].Kind != shellcmd.Dynamic &&
		matchesProgram(form[0], p.words[0]) {
		l = max(l, p.meaning.match(form))
	}
	return l
}

// matchesProgram reports whether the command word wd can run the program
// a restricting rule names: by its name or path, a command named by path
// by its last element, and a rule naming the program by path
// (Bash(/usr/bin/rm -rf:*)) also by its last element, as a search of PATH
// may lead a bare name there.
func matchesProgram(wd shellcmd.Word, name string) bool {
	if wd.Matches(name, true) || wd.MatchesName(name, true) {
		return true
	}
	return strings.Contains(name, "/") && wd.MatchesName(path.Base(name), true)
}

// matchWords matches p's words against form's word by word.
func (p *commandPattern) matchWords(form []shellcmd.Word, restrictive bool) matchLevel {
	k, n := len(p.words), len(form)
	// reach[i*(k+1)+j]: the best level at which form[:i] can produce
	// p.words[:j]. Most commands and patterns fit the buffer.
	var buf [128]matchLevel
	reach := buf[:]
	if size := (n + 1) * (k + 1); size <= len(buf) {
		reach = buf[:size]
	} else {
		reach = make([]matchLevel, size)
	}
	reach[0] = doesMatch
	best := noMatch
	lift := func(i, j int, l matchLevel) {
		if l > reach[i*(k+1)+j] {
			reach[i*(k+1)+j] = l
		}
	}
	for i := 0; i <= n; i++ {
		for j := 0; j <= k; j++ {
			l := reach[i*(k+1)+j]
			if l == noMatch {
				continue
			}
			if j == k && (p.prefix || i == n) && l > best {
				best = l
			}
			if i == n {
				continue
			}
			wd := form[i]
			switch wd.Kind {
			case shellcmd.Static, shellcmd.Glob:
				if j == k || wd.Kind == shellcmd.Glob && !restrictive {
					continue
				}
				ok := wd.Matches(p.words[j], restrictive)
				if !ok && j == 0 && restrictive {
					ok = matchesProgram(wd, p.words[0])
				}
				if ok {
					lift(i+1, j+1, l)
					if wd.Kind == shellcmd.Glob {
						lift(i, j+1, l) // a glob can expand to several words
					}
				}
			case shellcmd.Dynamic:
				if !restrictive {
					continue
				}
				m := min(l, mayMatch)
				lift(i+1, j, m) // it can expand to nothing
				if j < k {
					lift(i, j+1, m)
					lift(i+1, j+1, m)
				}
			}
		}
	}
	return best
}

// matchGlobForm matches a pattern with "*" against the command's text.
func (p *commandPattern) matchGlobForm(form []shellcmd.Word, restrictive bool) matchLevel {
	pat := strings.Join(p.words, " ")
	if p.prefix {
		pat += "*"
	}
	texts := []string{joinWords(form, false)}
	if restrictive && len(form) > 0 && form[0].Kind == shellcmd.Static && strings.Contains(form[0].Text, "/") {
		texts = append(texts, joinWords(form, true))
	}
	static := true
	for _, wd := range form {
		static = static && wd.Kind == shellcmd.Static
	}
	if !static && !restrictive {
		return noMatch
	}
	for _, t := range texts {
		if restrictive {
			t, pat = strings.ToLower(t), strings.ToLower(pat)
		}
		if wildcard(pat, t) {
			return doesMatch
		}
	}
	if static {
		return noMatch
	}
	// A word not known until run time could complete the pattern if the
	// command word can be the pattern's.
	first := p.words[0]
	if strings.Contains(first, "*") || form[0].Kind != shellcmd.Static || form[0].MatchesName(first, true) {
		return mayMatch
	}
	return noMatch
}

// joinWords joins a form's words with spaces; base names the command by
// its last path element.
func joinWords(form []shellcmd.Word, base bool) string {
	parts := make([]string, len(form))
	for i, wd := range form {
		parts[i] = wd.Text
	}
	if base && len(parts) > 0 {
		parts[0] = form[0].Name()
	}
	return strings.Join(parts, " ")
}

// decideCommand decides one simple command: the strictest rule any of its
// forms matches, or the default; at least require-approval when a rule
// could match once a run-time word is known, when the command cannot be
// read (its command word is computed, a wrapper was not understood), or
// when it runs code the bridge cannot see and no rule names it. ok is
// false for a transparent command (bash -c 'ls') no rule names: the
// commands it runs decide.
func (e *Engine) decideCommand(in *reqInfo, c *shellcmd.Command, advisories *[]string) (v verdict, ok bool) {
	return e.decideCommandWith(in, c, nil, advisories)
}

// decideCommandWith is decideCommand with what the engine kept of c, if
// anything (f is nil otherwise).
func (e *Engine) decideCommandWith(in *reqInfo, c *shellcmd.Command, f *commandFacts, advisories *[]string) (v verdict, ok bool) {
	var what string
	if f != nil {
		what = f.what
	} else {
		what = "running " + strconv.Quote(c.Source) // fmt's %q
	}
	var best, maybe *rule
	bestForm := 0
	rules := e.rulesFor(catCommand)
	applies := e.appliesBits[in.kindSet()][catCommand] // r.applies(in, catCommand) but for r's actions
	take := func(i int, m ruleLevel) {
		r := rules[i]
		if !applies.has(i) || !r.actionApplies(in.req.Action) || !r.all && r.cmd == nil {
			return
		}
		switch {
		case m.level == noMatch:
		case r.advisory:
			*advisories = append(*advisories, r.describe())
		case m.level == doesMatch:
			if best == nil || r.value.Stricter(best.value) {
				best, bestForm = r, m.at
			}
		case maybe == nil || r.value.Stricter(maybe.value):
			maybe = r
		}
	}
	if f != nil {
		// The rules that match at all, in policy order: a rule that
		// does not changes nothing.
		for _, m := range f.matched {
			take(m.rule, m.ruleLevel)
		}
	} else {
		for i, r := range rules {
			take(i, matchCommand(r, c))
		}
	}
	if best == nil && maybe == nil && c.Transparent && len(c.Notes) == 0 {
		return verdict{}, false
	}
	v = e.defaultVerdict(in, what)
	if best != nil {
		v = ruleVerdict(best, what)
	}
	weak := func() bool { return !v.value.Stricter(RequireApproval) && (best == nil || best.value == Allow) }
	for _, n := range c.Notes {
		if !weak() {
			break
		}
		if n.Kind == shellcmd.RunsCode && best != nil && best.value == Allow && !best.all && bestForm <= n.Form {
			continue // a rule names the interpreter or what starts it
		}
		v = verdict{value: RequireApproval, ref: "unreadable-command",
			ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
			reason: fmt.Sprintf("%s: %s, so no rule can vouch for it", what, n.Text)}
	}
	if maybe != nil && weak() {
		v = verdict{value: RequireApproval, rule: maybe, ref: maybe.ref, ruleTx: maybe.describe(),
			reason: fmt.Sprintf("%s: a word computed at run time could make it match %s (%s)", what, maybe.text, maybe.value)}
	}
	return v, true
}

// matchCommand returns how the command rule r matches c: the best level
// of its forms, and the first form at that level.
func matchCommand(r *rule, c *shellcmd.Command) ruleLevel {
	if r.all {
		return ruleLevel{level: doesMatch}
	}
	if r.cmd == nil {
		return ruleLevel{}
	}
	var m ruleLevel
	for i, f := range c.Forms {
		if l := r.cmd.matchForm(f, r.value != Allow); l > m.level {
			m = ruleLevel{level: l, at: i}
		}
		if m.level == doesMatch {
			break
		}
	}
	return m
}

// decideLineProblem decides a command line the grammar could not read.
func (e *Engine) decideLineProblem(line, problem string) verdict {
	return verdict{value: RequireApproval, ref: "unreadable-command",
		ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
		reason: fmt.Sprintf("running %q: %s", line, problem)}
}

// describeCommand returns a command's forms and the words in them that
// are not static, for policy check's report.
func describeCommand(c *shellcmd.Command) []string {
	var out []string
	for i, f := range c.Forms {
		label := "runs"
		if i > 0 {
			label = "which runs"
		}
		out = append(out, label+": "+joinWords(f, false))
		for _, wd := range f {
			if wd.Kind != shellcmd.Static {
				out = append(out, "not static: "+wd.String())
			}
		}
	}
	for _, n := range c.Notes {
		out = append(out, "note: "+n.Text)
	}
	return out
}
