package governance

import (
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
	// appliesBits says, per combination of request kinds (kindSet) and
	// subject category, which rules of bySubject appliesTo lets match
	// (appliesToBits).
	appliesBits [kindSets][catEnv + 1]ruleBits
	// restricting are the rules that deny, ask about or escalate paths
	// named by a pattern (restrictingPathRules), for the tree-write walk.
	restricting []*rule

	rootCache sync.Map // string (roots joined by NUL) -> *rootsEntry

	analyses  analyses  // of pure command lines
	lineTexts lineTexts // protectedCommand's reading of pure command lines

	protectMu    sync.Mutex                       // serialises Protect
	protectCache sync.Map                         // string (roots joined by NUL) -> *protectedSet
	protected    atomic.Pointer[[]protected]      // replaced whole by Protect
	belowRoots   atomic.Pointer[[]configLocation] // Protect's BelowRoots names, set before the list that counts them

	offloads offloadAllowance // SetOffloadReader

	// made are the links lines the engine let run may make (links_made.go).
	made madeLinks

	// flight is what the IDE may still be writing or running
	// (inflight.go).
	flight inFlight
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
	e.appliesBits = appliesToBits(&e.bySubject)
	e.restricting = e.restrictingPathRules()
	e.analyses.rules = e.rulesFor(catCommand)
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
	// subjects says the decision lists its subjects (Decide), so their
	// details are copied out for it; decideBrief lists none.
	subjects bool
	// transient says the paths this copy decides are looked up afresh
	// and not kept in memo: a tree walk decides thousands, each once, and
	// a memo searched for each would cost their square.
	transient bool
	// rootsAside decides a path with the built-in deny of paths outside
	// the workspace roots set aside: a form outside them gets the default
	// unless a rule names it (ruledBeyondRoots).
	rootsAside bool
	// defaultLast decides a path for a decider that passes over the
	// default (a command's files, written under the rule that allows the
	// command): a rule's or a built-in's verdict on any form stands over
	// the default's on another, even a stricter default (rules.default:
	// deny), which would hide it (reqInfo.outranks).
	defaultLast bool
	// links are the engine's kept links (madeLinks), through which every
	// path is decided too; made gathers the links this decision's line
	// may make (madeLinksVerdict), reserved is the room reserved for them,
	// until keepMadeLinks.
	links    *madeLinks
	made     []madeLink
	reserved int
	// looked is where the request's variables lead its names, found once
	// per decision (lookupFiles, protect_pathlookup.go).
	looked *lookedUpOnce
	// genDepth counts the go generate lines this request is one of, run
	// by go generate lines (gogenerate.go).
	genDepth int
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
	considered int     // verdicts considered so far
	advisories []string
	subjects   []Subject
}

func (e *Engine) info(req Request) *reqInfo { return &e.newDecision(req).info }

// newDecision returns the decision of req, with its subjects known and
// nothing considered yet.
func (e *Engine) newDecision(req Request) *decision {
	d := takeDecision()
	if req.Action == ActionTerminalCreate || req.Command != "" {
		req.Cwd = kernelCwd(req.Cwd) // a command opens names where the kernel puts it (cwd_dotdot.go)
	}
	d.info.req, d.memo.analyses = req, &e.analyses
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
	in.links = &e.made
	return d
}

// Decide returns the decision for req: each subject of the request (every
// path, every simple command of a command line, the fetched domain, or the
// tool itself when it has none of those) is decided by the strictest rule
// that matches it (deny, then escalate, then require-approval, then allow),
// paths outside the workspace roots are denied unless a rule for a fixed
// directory allows them, subjects no rule matches get the default, and the
// request gets the strictest decision over its subjects.
func (e *Engine) Decide(req Request) Decision {
	return e.decideKeeping(req, true)
}

// decideBrief is Decide without the decision's Subjects: the same value,
// rule, reason and advisories, from the same verdicts on every subject,
// for a caller that reads none of the subjects (the enforcer), so that
// no subject's reason is joined but the strictest one's.
func (e *Engine) decideBrief(req Request) Decision {
	return e.decideKeeping(req, false)
}

// decideKeeping is Decide, listing the subjects if subjects is set.
func (e *Engine) decideKeeping(req Request, subjects bool) Decision {
	if len(req.OtherCommands) > 0 {
		return e.decideEachCommand(req, subjects)
	}
	if len(req.OtherCwds) > 0 {
		return e.decideInEachCwd(req, subjects)
	}
	if cwds := e.keptLinkCwds(req); len(cwds) > 0 {
		// Decided where the kernel puts it now, which holds no "..",
		// and where the kept links put it (links_dotdot.go).
		now := req
		now.Cwd = kernelCwd(req.Cwd)
		return e.decideEach(now, subjects, variantsOf(req, cwds, func(v *Request, dir string) { v.Cwd = dir }))
	}
	dd := e.newDecision(req)
	in, advisories := &dd.info, &dd.advisories
	defer func() {
		// A decision that panics gives back the room it reserved for
		// the links its line makes (madeLinksVerdict), keeping none.
		if v := recover(); v != nil {
			e.made.keep(nil, in.reserved, false)
			panic(v)
		}
	}()
	in.subjects = subjects
	if subjects {
		dd.subjects = make([]Subject, 0, len(req.Paths)+2)
	}
	// The count is the decision's (a local the closure counted in would
	// be allocated for it).
	consider := func(v verdict, what string, details []string) {
		dd.considered++
		if subjects {
			dd.subjects = append(dd.subjects, Subject{What: what, Value: v.value, Rule: v.ruleTx, Reason: v.text(), Details: details})
		}
		if dd.considered == 1 || v.value.Stricter(dd.worst.value) {
			dd.worst = v // its reason joined below, once
		}
	}
	for _, p := range req.Paths {
		if p == "" && req.Action != ActionFSRead && req.Action != ActionFSWrite {
			// A member a tool call left empty names no file. An fs
			// request's path is the file the IDE opens, and "" is no
			// absolute path: it is decided, and refused, as one.
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
	if v, dir, ok := e.searchVerdict(in); ok {
		consider(v, "searching beneath "+dir, nil)
	}
	e.mentionedVerdicts(in, consider)
	if in.command || req.Command != "" {
		if v, ok := commandControlsVerdict(&req); ok {
			consider(v, "reading "+strings.TrimSpace(req.Command), nil)
		}
		later := e.decideCommands(in, advisories, consider)
		if v, ok := e.protectedCommand(in); ok {
			consider(v, "naming "+strings.TrimSpace(req.Command), nil)
		}
		if v, ok := e.gitRewritesProtected(in); ok {
			consider(v, "running "+strings.TrimSpace(req.Command), nil)
		}
		if v, ok := e.scriptCommandsVerdict(in); ok {
			consider(v, "running the commands of the scripts "+strings.TrimSpace(req.Command)+" runs", nil)
		}
		for _, f := range later {
			f()
		}
	}
	if req.RunDirUnclear != "" {
		consider(verdict{value: RequireApproval, ref: "run-directory", ruleTx: "require-approval for commands whose directory is unclear (built-in)",
			reason: req.RunDirUnclear}, "the directory the command runs in", nil)
	}
	for _, m := range req.UnreadInput {
		why := "the tool's input has a member " + m.Key + " that may hold what it runs, and the bridge does not read it"
		if slices.Contains(grantKeys, m.Key) {
			why = "the tool's input asks for write access beneath " + strconv.Quote(m.Text) + " for the rest of the session (" + m.Key + "), more than the files it changes"
		}
		consider(verdict{value: RequireApproval, ref: "unread-input", ruleTx: "require-approval for shell tool input the bridge does not read (built-in)",
			reason: why}, "the tool's input "+m.Key, nil)
	}
	for _, v := range req.Env {
		e.decideVariable(in, v.Name, v.Value, true, shellcmd.Dir{}, advisories, consider)
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
	if req.Kind == "fetch" {
		for _, u := range req.PromptURLs {
			consider(e.decideURL(in, u, advisories), u, nil)
		}
	}
	tool := e.decideTool(in, advisories)
	if tool.rule != nil || dd.considered == 0 {
		consider(tool, "the tool", nil)
	}
	w := &dd.worst
	e.keepMadeLinks(in, w.value)
	out := Decision{Value: w.value, Rule: w.ruleTx, Ref: w.ref, Reason: w.text(), Advisories: dd.advisories, Subjects: dd.subjects}
	release(dd)
	return out
}
