package governance

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Engine decides requests against a loaded policy. It does not touch the
// wire, so the bridge's middleware and an agent's own pre-tool hook can
// share it. An Engine is safe for concurrent use.
type Engine struct {
	policy *Policy
	roots  []string
	home   string
	// defaultTx are the rule texts of the policy's default
	// (defaultRuleTexts).
	defaultTx [3]string
	// bySubject lists, per subject category, the policy's rules that
	// may apply to such a subject of some request, in policy order.
	bySubject [catEnv + 1][]*rule

	rootCache sync.Map // string (roots joined by NUL) -> *rootsEntry

	analyses  analyses  // of pure command lines
	lineTexts lineTexts // protectedCommand's reading of pure command lines

	protectMu    sync.Mutex                  // serialises Protect
	protectCache sync.Map                    // string (roots joined by NUL) -> *protectedSet
	protected    atomic.Pointer[[]protected] // replaced whole by Protect

	offloads offloadAllowance // SetOffloadReader
}

// EngineOptions configures an Engine. The zero value is usable.
type EngineOptions struct {
	// Roots are the workspace roots; optional. If empty, each request's
	// Roots, or else its Cwd, is the root.
	Roots []string
	// Home is the home directory for "~" paths; optional, defaults to the
	// current user's.
	Home string
	// Protected are the bridge's own files the agent may not change (or
	// read), whatever the policy says; optional. Engine.Protect adds more
	// later.
	Protected []ProtectedPath
}

// NewEngine returns an engine deciding with p. A nil p decides everything
// with the built-in default, require-approval.
func NewEngine(p *Policy, opts EngineOptions) *Engine {
	if p == nil {
		p = &Policy{Default: RequireApproval, DefaultWhere: "built-in"}
	}
	home := opts.Home
	if home == "" {
		home = homeDir()
	}
	var roots []string
	for _, r := range opts.Roots {
		roots = append(roots, absPath(r, "", home))
	}
	e := &Engine{policy: p, roots: roots, home: home, defaultTx: defaultRuleTexts(p)}
	for sub := range e.bySubject {
		for _, r := range p.rules {
			if r.appliesTo(true, true, true, true, category(sub)) {
				e.bySubject[sub] = append(e.bySubject[sub], r)
			}
		}
	}
	e.Protect(opts.Protected...)
	return e
}

// Policy returns the engine's policy.
func (e *Engine) Policy() *Policy { return e.policy }

// Roots returns the engine's configured workspace roots (empty when each
// session's cwd is its root).
func (e *Engine) Roots() []string { return append([]string(nil), e.roots...) }

// subjects a request exposes to rules.
type reqInfo struct {
	req                         Request
	read, write, command, fetch bool
	// opaque: a tool call that claims neither a read nor a write (kind
	// "other", "think", a tool name the bridge does not know). Its kind
	// is the agent's word, so each path it names is also decided as a
	// read and as a write, and the strictest decision stands.
	opaque bool
	roots  []string
	// rootsEnt is the engine's entry for roots (rootsOf), nil in a
	// reqInfo built without an engine.
	rootsEnt *rootsEntry
	// memo keeps what this decision resolved and parsed; nil decides
	// without it.
	memo *decisionMemo
}

var readTools = map[string]bool{"Read": true, "Glob": true, "Grep": true, "LS": true, "NotebookRead": true}
var writeTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true}

// decision is what one decision keeps and gathers, allocated together:
// the request's subjects, what it resolved and parsed, and the verdicts
// Decide has considered so far.
type decision struct {
	info reqInfo
	memo decisionMemo

	worst      verdict // the first strictest
	advisories []string
	subjects   []Subject
}

func (e *Engine) info(req Request) *reqInfo { return &e.newDecision(req).info }

// newDecision returns the decision of req, with its subjects known and
// nothing considered yet.
func (e *Engine) newDecision(req Request) *decision {
	d := &decision{info: reqInfo{req: req}, memo: decisionMemo{analyses: &e.analyses}}
	d.memo.paths = d.memo.pathsBuf[:0]
	in := &d.info
	in.memo = &d.memo
	tc := req.Action == ActionToolCall
	in.read = req.Action == ActionFSRead || tc && (req.Kind == "read" || req.Kind == "search" || readTools[req.Tool])
	in.write = req.Action == ActionFSWrite || tc && (req.Kind == "edit" || req.Kind == "delete" || req.Kind == "move" || writeTools[req.Tool])
	in.command = req.Action == ActionTerminalCreate || tc && (req.Kind == "execute" || req.Tool == "Bash")
	in.fetch = tc && (req.Kind == "fetch" || req.Tool == "WebFetch")
	in.opaque = tc && !in.read && !in.write
	roots := e.roots
	if len(roots) == 0 {
		roots = req.Roots
	}
	cwdRoot := [1]string{req.Cwd}
	if len(roots) == 0 && req.Cwd != "" {
		roots = cwdRoot[:]
	}
	var absBuf [1]string // a session has one root
	abs := absBuf[:0]
	for _, r := range roots {
		abs = append(abs, absPath(r, req.Cwd, e.home))
	}
	in.rootsEnt = e.rootsOf(strings.Join(abs, "\x00"), abs)
	in.roots = in.rootsEnt.forms
	return d
}

// verdict is the decision for one subject of a request.
type verdict struct {
	value  Value
	rule   *rule // nil for the default and the workspace-roots rule
	ref    string
	ruleTx string
	reason string // if "", the pieces of lazy joined (text)
	// lazy is the reason in pieces, joined only for a verdict a decision
	// keeps: a decision weighs many verdicts (each path as written and
	// resolved, as a read and as a write) and keeps few.
	lazy [4]string
}

// text returns the verdict's reason.
func (v *verdict) text() string {
	if v.reason == "" {
		return v.lazy[0] + v.lazy[1] + v.lazy[2] + v.lazy[3]
	}
	return v.reason
}

// Decide returns the decision for req: each subject of the request (every
// path, every simple command of a command line, the fetched domain, or the
// tool itself when it has none of those) is decided by the strictest rule
// that matches it (deny, then escalate, then require-approval, then allow),
// paths outside the workspace roots are denied unless a rule for a fixed
// directory allows them, subjects no rule matches get the default, and the
// request gets the strictest decision over its subjects.
func (e *Engine) Decide(req Request) Decision {
	dd := e.newDecision(req)
	in, advisories := &dd.info, &dd.advisories
	dd.subjects = make([]Subject, 0, len(req.Paths)+2)
	consider := func(v verdict, what string, details []string) {
		reason := v.text()
		dd.subjects = append(dd.subjects, Subject{What: what, Value: v.value, Rule: v.ruleTx, Reason: reason, Details: details})
		if len(dd.subjects) == 1 || v.value.Stricter(dd.worst.value) {
			dd.worst = v
			dd.worst.reason = reason
		}
	}
	for _, p := range req.Paths {
		if p == "" {
			continue
		}
		v := e.decidePathLazy(in, p, advisories)
		if in.opaque && !(in.command && p == req.Cwd) {
			v = e.decideOpaquePath(in, p, v, advisories)
		}
		if in.command && p == req.Cwd && v.ref == "default" {
			// The directory a command runs in is refused outside the
			// roots and by rules that name it; the default is the
			// command's to decide.
			continue
		}
		consider(v, p, nil)
	}
	if in.command || req.Command != "" {
		later := e.decideCommands(in, advisories, consider)
		if v, ok := e.protectedCommand(in); ok {
			consider(v, "naming "+strings.TrimSpace(req.Command), nil)
		}
		for _, f := range later {
			f()
		}
	}
	for _, v := range req.Env {
		e.decideVariable(in, v.Name, v.Value, true, advisories, consider)
	}
	if req.Action == ActionTerminalCreate && req.NoCwd {
		consider(verdict{value: Deny, ref: "relative-path", ruleTx: refusalRules["relative-path"],
			reason: "running a terminal without a cwd: the IDE runs it in its own working directory, not the session's, so the agent must name the directory"},
			"running without a cwd", nil)
	} else if req.Action == ActionTerminalCreate && req.Cwd != "" {
		// Inside the roots a terminal's cwd says nothing either way.
		if v := e.decideTerminalDir(in); v.value != Allow {
			consider(v, "running in "+req.Cwd, nil)
		}
	}
	if req.URL != "" {
		consider(e.decideURL(in, req.URL, advisories), req.URL, nil)
	}
	tool := e.decideTool(in, advisories)
	if tool.rule != nil || len(dd.subjects) == 0 {
		consider(tool, "the tool", nil)
	}
	w := &dd.worst
	return Decision{Value: w.value, Rule: w.ruleTx, Ref: w.ref, Reason: w.reason, Advisories: dd.advisories, Subjects: dd.subjects}
}

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
	for i, a := range in.commandLines() {
		for _, p := range a.Problems {
			consider(e.decideLineProblem(a.Line, p), fmt.Sprintf("reading %q", a.Line), nil)
		}
		for _, c := range a.Commands {
			what, details := "running "+strconv.Quote(c.Source), describeCommand(c) // fmt's %q
			if i == 1 {
				what += " (as argv, the way a client that execs it runs it)"
			}
			// The readings of one request often agree: report each once.
			key := what + "\x00" + strings.Join(details, "\x00")
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
			if v, ok := e.decideCommand(in, c, advisories); ok {
				consider(v, what, details)
			}
			if v, ok := e.decideArgs(in, c, a.ChangesDir, advisories); ok {
				// After the protected files: when both deny, the
				// protected file is the reason.
				w := what
				later = append(later, func() { consider(v, "opening the files "+w+" names", nil) })
			}
		}
		for _, as := range a.Assignments {
			e.decideVariable(in, as.Name, as.Value, as.Static, advisories, consider)
		}
		for _, r := range a.Redirects {
			if v, ok := e.decideRedirect(in, r, a.ChangesDir, advisories); ok {
				consider(v, "opening "+r.Target.Text+" (a redirection)", nil)
			}
		}
	}
	return later
}

// decideVariable decides setting one variable, and any command its value
// holds that bash may run when it evaluates the value again.
func (e *Engine) decideVariable(in *reqInfo, name, value string, static bool, advisories *[]string, consider func(verdict, string, []string)) {
	if v, ok := e.decideEnv(in, name, advisories); ok {
		consider(v, "setting "+name, nil)
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
		inside := false
		for _, r := range in.roots {
			if _, ok := within(r, form, false); ok {
				inside = true
				break
			}
		}
		if !inside {
			return verdict{value: Deny, ref: "workspace-roots", ruleTx: "deny paths outside the workspace roots (built-in)",
				reason: fmt.Sprintf("%s: %s is outside the workspace roots %s", what, form, strings.Join(in.roots, ", "))}
		}
	}
	return verdict{value: Allow, ref: "workspace-roots", ruleTx: "allow terminals inside the workspace roots (built-in)",
		reason: what + ": inside the workspace roots"}
}

// applies reports whether r may match a request in. sub is the subject's
// category (catTool for the tool itself).
func (r *rule) applies(in *reqInfo, sub category) bool {
	if len(r.actions) > 0 {
		ok := false
		for _, a := range r.actions {
			if matchAction(a, in.req.Action) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return r.appliesTo(in.read, in.write, in.command || in.req.Command != "", in.fetch || in.req.URL != "", sub)
}

// appliesTo is applies without the actions: whether r may match subject
// sub of a request that reads, writes, runs a command or fetches.
func (r *rule) appliesTo(read, write, command, fetch bool, sub category) bool {
	switch r.cat {
	case catAny:
		return sub == catTool
	case catTool:
		return sub == catTool
	case catPath:
		return sub == catPath
	case catRead:
		return read && (sub == catPath || r.all && sub == catTool)
	case catWrite:
		return write && (sub == catPath || r.all && sub == catTool)
	case catCommand:
		return command && (sub == catCommand || r.all && sub == catTool)
	case catFetch:
		return fetch && (sub == catFetch || r.all && sub == catTool)
	case catEnv:
		return sub == catEnv
	}
	return false
}

// fold says whether a rule compares without regard to case. Rules that
// restrict do, so "READ.ENV" or "/W/.Env" cannot slip past them on a file
// system that ignores case; allow rules do not, so they never allow more
// than written.
func (r *rule) fold() bool { return r.value != Allow }

// rulesFor returns the rules that may apply to a subject of category sub
// (rule.applies is false for every other rule), in policy order.
func (e *Engine) rulesFor(sub category) []*rule { return e.bySubject[sub] }

// pick returns the strictest matching rule; among equals, the first.
// match is given each rule's index in e.rulesFor(sub).
func (e *Engine) pick(in *reqInfo, sub category, match func(i int, r *rule) bool, advisories *[]string) *rule {
	var best *rule
	for i, r := range e.rulesFor(sub) {
		if !r.applies(in, sub) || !match(i, r) {
			continue
		}
		if r.advisory {
			*advisories = append(*advisories, r.describe())
			continue
		}
		if best == nil || r.value.Stricter(best.value) {
			best = r
		}
	}
	return best
}

func (e *Engine) defaultVerdict(in *reqInfo, what string) verdict {
	v := e.defaultVerdictOf(in, what, "", "")
	v.reason = v.text()
	return v
}

// defaultVerdictOf is defaultVerdict of what+what1+what2 with its reason
// left in pieces (verdict.lazy).
func (e *Engine) defaultVerdictOf(in *reqInfo, what, what1, what2 string) verdict {
	v, tx := e.policy.Default, e.defaultTx[0]
	if e.policy.OnMutate {
		v, tx = Allow, e.defaultTx[1]
		if in.write || in.command || in.req.Action == ActionSessionNew || !in.read && in.req.Action == ActionToolCall && in.req.Kind != "think" && in.req.Kind != "search" {
			v, tx = RequireApproval, e.defaultTx[2]
		}
	}
	return verdict{value: v, ref: "default", ruleTx: tx, lazy: [4]string{what, what1, what2, ": no rule matches, so the default applies"}}
}

// defaultRuleTexts returns the rule texts of p's default as
// defaultVerdictOf picks them: the default, on-mutate's allow and its
// require-approval.
func defaultRuleTexts(p *Policy) [3]string {
	tx := func(name string) string { return "default " + name + " (" + p.DefaultWhere + ")" }
	return [3]string{tx(string(p.Default)), tx("on-mutate: " + string(Allow)), tx("on-mutate: " + string(RequireApproval))}
}

func ruleVerdict(r *rule, what string) verdict {
	v := ruleVerdictOf(r, what, "", "")
	v.reason = v.text()
	return v
}

// ruleVerdictOf is ruleVerdict of what+what1+what2 with its reason left
// in pieces (verdict.lazy).
func ruleVerdictOf(r *rule, what, what1, what2 string) verdict {
	return verdict{value: r.value, rule: r, ref: r.ref, ruleTx: r.describe(), lazy: [4]string{what, what1, what2, r.verdictTail()}}
}

func pastTense(v Value) string {
	switch v {
	case Allow:
		return "allowed"
	case Deny:
		return "denied"
	case Escalate:
		return "escalated"
	}
	return "approval required"
}

func (e *Engine) describeAction(in *reqInfo) string {
	switch {
	case in.req.Action == ActionSessionNew:
		return "opening a session in"
	case in.command:
		return "running a command on"
	case in.write:
		return "writing"
	case in.read:
		return "reading"
	}
	return "using"
}

// decidePath decides the request path p.
func (e *Engine) decidePath(in *reqInfo, p string, advisories *[]string) verdict {
	v := e.decidePathLazy(in, p, advisories)
	v.reason = v.text()
	return v
}

// decidePathLazy is decidePath with the reason possibly left in pieces
// (verdict.lazy), for a caller that reads it only through verdict.text.
func (e *Engine) decidePathLazy(in *reqInfo, p string, advisories *[]string) verdict {
	f := in.facts(p)
	forms, refusal := f.forms, f.refusal
	if refusal != nil {
		return verdict{value: Deny, ref: refusal.ref, ruleTx: refusalRules[refusal.ref],
			reason: fmt.Sprintf("%s %q: %s", e.describeAction(in), p, refusal.why)}
	}
	if v, ok := e.protectedVerdict(in, p, f); ok {
		return v
	}
	if v, ok := e.specialFileVerdict(in, p, f); ok {
		return v
	}
	var worst verdict
	lowerRoots := in.lowerRoots()
	action := e.describeAction(in)
	subjects := f.subjects()
	for i, form := range forms {
		inside := false
		for _, r := range in.roots {
			if _, ok := cutDir(r, form); ok {
				inside = true
				break
			}
		}
		var matches ruleBits // pathRuleMatches of the form, when a rule asks
		best := e.pick(in, catPath, func(j int, r *rule) bool {
			if !inside && r.value != Deny && (r.path == nil || r.path.anchor != anchorAbs) {
				// Outside the roots only a rule that names a fixed
				// directory speaks for a path: a rule written for the
				// workspace (Edit, Write(**/*.sh)) can neither allow it
				// nor turn the built-in deny into a question. A deny
				// is a deny anywhere.
				return false
			}
			if r.all || r.cat == catAny || r.cat == catTool {
				return true
			}
			if r.path == nil {
				return false
			}
			if in.rootsEnt == nil {
				return r.path.matchSubject(&subjects[i], in.roots, lowerRoots, r.fold())
			}
			if matches == nil {
				matches = e.pathRuleMatches(in.rootsEnt, &subjects[i])
			}
			return matches.has(j)
		}, advisories)
		var v verdict
		switch {
		case best != nil:
			v = ruleVerdictOf(best, action, " ", form)
		case !inside && e.ownOffload(in, form, forms[len(forms)-1]):
			v = offloadVerdict(action, form)
		case !inside:
			v = verdict{value: Deny, ref: "workspace-roots", ruleTx: "deny paths outside the workspace roots (built-in)",
				reason: fmt.Sprintf("%s %s: outside the workspace roots %s", action, form, strings.Join(in.roots, ", "))}
		case in.req.Action == ActionSessionNew:
			// The default is about what the agent does; a session
			// inside the workspace is the person's own choice.
			v = verdict{value: Allow, ref: "workspace-roots", ruleTx: "allow sessions inside the workspace roots (built-in)",
				reason: fmt.Sprintf("%s %s: inside the workspace roots", action, form)}
		default:
			v = e.defaultVerdictOf(in, action, " ", form)
		}
		if i == 0 || v.value.Stricter(worst.value) {
			worst = v
		}
	}
	if v, ok := e.hardLinkVerdict(in, p, f); ok && v.value.Stricter(worst.value) {
		worst = v
	}
	return worst
}

func (e *Engine) decideURL(in *reqInfo, u string, advisories *[]string) verdict {
	host := urlHost(u)
	what := fmt.Sprintf("fetching %s", host)
	best := e.pick(in, catFetch, func(_ int, r *rule) bool {
		return r.all || r.domain != "" && matchDomain(r.domain, host)
	}, advisories)
	if best != nil {
		return ruleVerdict(best, what)
	}
	return e.defaultVerdict(in, what)
}

// decideTool decides the tool itself. Its reason is left in pieces
// (verdict.lazy): Decide often drops it.
func (e *Engine) decideTool(in *reqInfo, advisories *[]string) verdict {
	name := in.req.Tool
	if name == "" {
		name = in.req.Title
	}
	what, sep := in.req.Action, " " // what+sep+name: "tool.call Read"
	if name == "" {
		sep = ""
	}
	best := e.pick(in, catTool, func(_ int, r *rule) bool {
		switch {
		case r.cat == catAny || r.all:
			return true
		case r.cat == catTool:
			return globName(r.tool, in.req.Tool, r.fold()) || globName(r.tool, in.req.Title, r.fold())
		}
		return false
	}, advisories)
	if best != nil {
		return ruleVerdictOf(best, what, sep, name)
	}
	return e.defaultVerdictOf(in, what, sep, name)
}

func globName(pattern, name string, fold bool) bool {
	if name == "" {
		return false
	}
	if fold {
		pattern, name = strings.ToLower(pattern), strings.ToLower(name)
	}
	ok, err := filepath.Match(pattern, name)
	return err == nil && ok
}
