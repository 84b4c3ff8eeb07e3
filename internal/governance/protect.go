package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ProtectedPath is a location the agent may never change, whatever the
// policy says: the bridge's own policy files, manifest, audit log, caches
// and sockets. A policy file the agent could rewrite would be obeyed by the
// next run; an audit log it could edit would prove nothing.
type ProtectedPath struct {
	// Path is a file or directory (relative to the bridge's working
	// directory, as the bridge opened it); a directory protects everything
	// beneath it.
	Path string
	// What names the location for the user: "the governance policy",
	// "the audit log". It must not contain " (", which ends a rule in the
	// lines ImplicitRules returns.
	What string
	// Read refuses reads as well (the audit log, the hook socket); by
	// default only writes, edits, deletes, moves and commands naming the
	// location are refused.
	Read bool
	// Rotated also protects the files next to Path whose names begin with
	// its name, "<name><anything>" and ".<name><anything>": rotated audit
	// logs (audit.jsonl.000001), their lock (.audit.jsonl.lock), and any
	// file a reviewer's "audit verify audit.jsonl*" would read with them.
	Rotated bool
	// OwnOffloads lets a read through Read's protection when it names
	// exactly, through no link, a file the bridge's compression offloaded
	// for the reading session (SetOffloadReader): the compression cache,
	// whose other files (other sessions' offloads, conversation archives
	// and spools) stay refused wherever the cache lies.
	OwnOffloads bool
	// BelowRoots makes Path a name relative to a workspace root (".env")
	// protected beneath every root and at any depth, as the agents' own
	// configuration is (agentConfig): for an agent that reads it from
	// whatever directory its session runs in, or the nearest above.
	BelowRoots bool
}

// protected is a ProtectedPath with the forms it is compared in.
type protected struct {
	ProtectedPath
	forms []string // cleaned, and with its symlinks resolved
	lower []string // forms in lower case: restricting matches ignore case
	dir   bool     // a directory when it was added (its name alone is no needle)
	rel   string   // for agentConfig: the path below the workspace root
	lrel  string   // rel in lower case
	elem  bool     // for agentConfig: matched as path elements only, never in a command's text
	// tail says every form in lower ends with "/"+lrel (lrel set, with no
	// trailing "/"): a path beneath one, or holding lrel below its root
	// (nestedConfig), has an element starting with lrel[0].
	tail bool
	// own says the location is one of the bridge's own files, given to
	// Protect (the policy, the manifest, the audit log, the cache, the
	// hook socket, an adapter's native policy), not configuration found
	// in a workspace.
	own bool
	// run is the run of plain tail locations this one starts in a list
	// protectedForRoots made (markTailRuns); zero elsewhere.
	run tailRun
}

// agentConfig are the files in a workspace that decide how the next run
// starts or what the agent may do without asking: an agent that rewrote
// them would escape the bridge there (a Claude Code hook is a command
// Claude runs; Zed's project settings can name the agent command the IDE
// starts). They are protected from changes beneath every workspace root,
// whether or not the engine was given other locations. So are the files
// the IDE, its git and the person's shell run commands from without the
// agent: the repository's git configuration and hooks (the IDE's git runs
// core.fsmonitor, core.hooksPath, hooks), direnv's .envrc (run on cd into
// the workspace) and the IDE's task and run configurations. Each is
// protected wherever below a root it sits, not only at the root: Zed reads
// .zed/settings.json in every folder, direnv an .envrc in every directory
// cd enters, and the IDE finds repositories nested in the workspace and
// runs git in them. A git directory is protected whole, and so is a .git
// file where none is ("gitdir: evil"): git takes the configuration and
// hooks of whatever repository a .git names, a commondir in it or a
// submodule's directory beneath it. So are the hooks and configuration of
// the usual git hook managers: a core.hooksPath of .husky or .githooks runs
// the scripts there, and lefthook, pre-commit and overcommit, once
// installed, run what their configuration names on each commit. The
// configuration of the person's other everyday tools that run commands
// from the workspace on their own (toolConfig) is added to the list.
var agentConfig = append([]configLocation{
	{".claude/settings.json", "Claude Code's project settings, whose hooks run commands", false, false},
	{".claude/settings.local.json", "Claude Code's local project settings, whose hooks run commands", false, false},
	{".claude/skills", "Claude Code's project skills, whose inline shell commands Claude runs without its hooks", true, false},
	{".claude/commands", "Claude Code's project slash commands, whose inline shell commands Claude runs without its hooks", true, false},
	{".claude/agents", "Claude Code's project subagents, whose hooks are commands Claude runs", true, false},
	{".claude/workflows", "Claude Code's project workflows, JavaScript Claude runs when a workflow is started", true, false},
	{".claude/hooks", "Claude Code's project hook scripts, which Claude's own sandbox keeps from writes as it keeps its settings", true, false},
	{".claude/launch.json", "Claude's preview launch configuration, commands the Claude app runs to preview the project", false, false},
	{".mcp.json", "the project's MCP servers, each a command the agent starts", false, false},
	{".worktreeinclude", "Claude Code's list of ignored files its EnterWorktree copies into a new work tree, where the policy's rules for their first place do not reach them", false, false},
	{".gemini/settings.json", "Gemini CLI's project settings", false, false},
	{".agents/skills", "the workspace's agent skills, which Gemini CLI loads as it loads .gemini/skills and ahead of them", true, false},
	{".gemini/policies", "Gemini CLI's project policies", true, false},
	{".gemini/commands", "Gemini CLI's project commands, whose !{...} shell commands Gemini runs when the command is used", true, false},
	{".gemini/agents", "Gemini CLI's project subagents, whose MCP servers are commands Gemini starts", true, false},
	{".gemini/.env", "Gemini CLI's project environment, whose variables, BASH_ENV among them, Gemini's shell commands inherit", false, false},
	{".codex/config.toml", "Codex's project configuration, whose MCP servers are commands Codex starts and whose sandbox and approval settings it obeys", false, false},
	{".codex/rules", "Codex's project rules, which let commands run without asking", true, false},
	{".zed/settings.json", "Zed's project settings, which can change the agent command", false, false},
	{".vscode/settings.json", "VS Code's workspace settings", false, false},
	{".git/config", "the repository's git configuration, whose core.fsmonitor, core.hooksPath and aliases run commands", false, false},
	{".git/hooks", "the repository's git hooks, commands git runs", true, false},
	{".git", "a repository's .git, a directory or a file naming one, where git finds configuration and hooks that run commands", true, true},
	{".envrc", "direnv's .envrc, a script direnv runs in the workspace", false, false},
	{".vscode/tasks.json", "VS Code's tasks, commands the IDE runs", false, false},
	{".vscode/mcp.json", "VS Code's MCP servers, commands the IDE starts", false, false},
	{".devcontainer", "the dev container configuration, whose initializeCommand the IDE runs on the person's machine", true, false},
	{".devcontainer.json", "the dev container configuration, whose initializeCommand the IDE runs on the person's machine", false, false},
	{".zed/tasks.json", "Zed's tasks, commands the IDE runs", false, false},
	{".idea/runConfigurations", "JetBrains run configurations, commands the IDE runs", true, false},
	{".husky", "husky's git hooks, which core.hooksPath names for git to run", true, false},
	{".githooks", "the repository's shared git hooks, which core.hooksPath names for git to run", true, false},
	{".git-hooks", "overcommit's git hooks, commands git runs", true, false},
	{".overcommit.yml", "overcommit's configuration, the git hooks it runs", false, false},
	{".pre-commit-config.yaml", "pre-commit's configuration, the git hooks it runs", false, false},
	{".lefthook", "lefthook's hook scripts, commands git runs", true, false},
	{".lefthook-local", "lefthook's local hook scripts, commands git runs", true, false},
	{"lefthook.yml", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook.yaml", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook.toml", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook.json", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook.jsonc", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook-local.yml", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook-local.yaml", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook-local.toml", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook-local.json", "lefthook's configuration, the git hooks it runs", false, false},
	{"lefthook-local.jsonc", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook.yml", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook.yaml", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook.toml", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook.json", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook.jsonc", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook-local.yml", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook-local.yaml", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook-local.toml", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook-local.json", "lefthook's configuration, the git hooks it runs", false, false},
	{".lefthook-local.jsonc", "lefthook's configuration, the git hooks it runs", false, false},
}, append(toolConfig, agentDirs...)...)

// configLocation is a file or directory protected beneath every workspace
// root (agentConfig), by its path below the root.
type configLocation struct {
	rel, what string
	dir       bool
	elem      bool // a name too common in text (".git" is in ".gitignore") to look for in a command line
}

// protectedFor returns the locations protected for a request: the
// engine's own, the agent configuration beneath each workspace root and
// what each root's repository configuration names (hooksOf). The list for
// a set of roots is kept until Protect changes the engine's or a file that
// configuration was read from changes.
func (e *Engine) protectedFor(in *reqInfo) []protected {
	own := e.protected.Load()
	list := e.protectedList()
	if len(in.roots) == 0 {
		return list
	}
	if in.memo != nil && in.memo.protected != nil {
		return in.memo.protected // the files hooksOf read are looked at once a decision
	}
	if in.memo != nil && !in.mutates() && in.memo.protectedKept != nil {
		return in.memo.protectedKept
	}
	out := e.protectedForRoots(in, own, list)
	if in.memo != nil {
		if in.mutates() {
			in.memo.protected = out
		} else {
			in.memo.protectedKept = out
		}
	}
	return out
}

// protectedForRoots is protectedFor for a request with roots, from the
// engine's cache while it holds.
func (e *Engine) protectedForRoots(in *reqInfo, own *[]protected, list []protected) []protected {
	key := strings.Join(in.roots, "\x00")
	// What the repository configuration adds protects from changes only
	// (protectedHitOf passes over it for a request that changes nothing),
	// so such a request takes a kept set without looking at the files the
	// configuration was read from.
	if c, ok := e.protectCache.Load(key); ok && c.(*protectedSet).own == own && (!in.mutates() || !c.(*protectedSet).stale()) {
		return c.(*protectedSet).all
	}
	out := make([]protected, 0, len(list)+len(agentConfig)+len(homeConfig))
	out = append(out, list...)
	home := e.homeBases(in.roots)
	for _, c := range slices.Concat(agentConfig, e.belowRootsList()) {
		pr := protected{ProtectedPath: ProtectedPath{Path: in.roots[0] + "/" + c.rel, What: c.what}, rel: c.rel, lrel: strings.ToLower(c.rel), elem: c.elem, dir: c.dir}
		for _, r := range slices.Concat(in.roots, home) {
			pr.forms = append(pr.forms, r+"/"+c.rel)
		}
		pr.lower = lowerAll(pr.forms)
		pr.tail = configTail(pr.lower, pr.lrel)
		out = append(out, pr)
	}
	out = append(out, homeProtected(home)...)
	set := &protectedSet{own: own}
	for _, r := range in.roots {
		h := hooksOf(r, e.home)
		set.hooks = append(set.hooks, h)
		out = append(out, h.list...)
	}
	markTailRuns(out)
	set.all = out
	e.protectCache.Store(key, set)
	return out
}

// protectedSet is a cached protectedFor result, valid while the engine's
// own list is own.
type protectedSet struct {
	own   *[]protected
	all   []protected
	hooks []*repoHooks // each root's repository configuration, read again when it changes
}

func lowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// beneath reports whether p is d or beneath it; both are lower-case.
func beneath(d, p string) bool {
	_, ok := cutDir(d, p)
	return ok
}

// Protect adds locations the engine refuses to let the agent change (see
// ProtectedPath), for features that create them after the engine exists
// (the hook socket, an agent's native policy file). It is safe for
// concurrent use with Decide.
func (e *Engine) Protect(ps ...ProtectedPath) {
	e.protectMu.Lock()
	defer e.protectMu.Unlock()
	list := append([]protected(nil), e.protectedList()...)
	below := e.belowRootsList()
	for _, p := range ps {
		if p.Path == "" {
			continue
		}
		if p.BelowRoots {
			below = append(below[:len(below):len(below)], configLocation{rel: filepath.Clean(p.Path), what: p.What, dir: false, elem: true})
			continue
		}
		c, err := filepath.Abs(p.Path) // relative to the bridge's directory, as it opened the file
		if err != nil {
			c = absPath(p.Path, "/", e.home)
		}
		pr := protected{ProtectedPath: p, forms: []string{c}, own: true}
		pr.Path = c
		if r := resolveDir(c); r != c && !strings.Contains(r, "\x00") {
			pr.forms = append(pr.forms, r)
		}
		pr.lower = lowerAll(pr.forms)
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			pr.dir = true
		}
		list = append(list, pr)
	}
	e.belowRoots.Store(&below) // before the new list, whose pointer tells the caches to count it
	e.protected.Store(&list)
}

// belowRootsList returns the names Protect was given to protect beneath
// every workspace root.
func (e *Engine) belowRootsList() []configLocation {
	if l := e.belowRoots.Load(); l != nil {
		return *l
	}
	return nil
}

func (e *Engine) protectedList() []protected {
	if l := e.protected.Load(); l != nil {
		return *l
	}
	return nil
}

// Protected returns the locations the engine protects, in the order they
// were added.
func (e *Engine) Protected() []ProtectedPath {
	var out []ProtectedPath
	for _, p := range e.protectedList() {
		out = append(out, p.ProtectedPath)
	}
	return out
}

// ImplicitRules returns the rules self-protection adds to every policy,
// one line each in the form of Policy.Rules ("deny Edit(//abs/path)
// (built-in: the audit log)"), so that `policy check` can show them and
// the agent adapters can hand them to agents with native rules.
func (e *Engine) ImplicitRules() []string {
	var out []string
	for _, p := range e.protectedList() {
		var globs []string
		for _, f := range p.forms {
			if fi, err := os.Stat(f); err == nil && fi.IsDir() {
				globs = append(globs, "/"+f+"/**")
				continue
			}
			globs = append(globs, "/"+f)
			if p.Rotated {
				dir, name := filepath.Split(f)
				globs = append(globs, "/"+dir+name+".*", "/"+dir+"."+name+".*")
			}
		}
		where := " (built-in: " + p.What + ")"
		tools := []string{"Edit", "Write"}
		// An agent's native Read rule cannot tell the session's own
		// offloads from the rest of the cache: the bridge decides those
		// reads itself (through the agent's hook, or on the wire).
		if p.Read && !p.OwnOffloads {
			tools = append(tools, "Read")
		}
		for _, g := range globs {
			for _, t := range tools {
				out = append(out, fmt.Sprintf("deny %s(%s)%s", t, g, where))
			}
		}
	}
	below := e.belowRootsList()
	for i, c := range slices.Concat(agentConfig, below) {
		glob := "./" + c.rel
		if i >= len(agentConfig) {
			glob = "**/" + c.rel // a BelowRoots name, at any depth
		}
		if c.dir {
			glob += "/**"
		}
		for _, t := range []string{"Edit", "Write"} {
			out = append(out, fmt.Sprintf("deny %s(%s) (built-in: %s)", t, glob, c.what))
		}
	}
	return out
}

// mutates reports whether a request may change what its paths name:
// everything but a read, a search and opening a session, so a command or
// a tool of unknown kind that names a protected file is refused.
func (in *reqInfo) mutates() bool {
	if in.req.Action == ActionSessionNew {
		return false
	}
	return !(in.read && !in.write && !in.command && !in.fetch)
}

// protectedVerdict returns a deny verdict when one of forms, the forms of
// the request path p, names a protected location the request may not
// touch: a change to it or beneath it, a delete or move of a directory
// holding it, a read of one protected from reads, or a hard link to one
// of its files. facts holds the path's forms (pathForms).
func (e *Engine) protectedVerdict(in *reqInfo, p string, facts *pathFacts) (verdict, bool) {
	list := e.protectedFor(in)
	if len(list) == 0 || in.req.Action == ActionSessionNew {
		return verdict{}, false
	}
	h := facts.protection(in.mutates(), func(mutates bool) protectedHit {
		return protectedHitOf(list, facts, mutates, in.req.Kind == "delete" || in.req.Kind == "move")
	})
	if h.ok && h.pr.OwnOffloads && e.ownOffloadForms(in, facts.forms) {
		// The session's own offload: only the locations that keep no
		// offloads still speak for it.
		h = protectedHitOf(withoutOffloadCaches(list), facts, false, false)
	}
	if !h.ok {
		return e.gitDirVerdict(in, facts.forms)
	}
	rule := "deny changes to %s (built-in self-protection)"
	if h.pr.Read {
		rule = "deny any access to %s (built-in self-protection)"
	}
	return verdict{value: Deny, ref: "self-protection", ruleTx: fmt.Sprintf(rule, h.pr.What),
		reason: fmt.Sprintf("%s %s: %s is protected from the agent, whatever the policy says", e.describeAction(in), h.form, h.pr.What)}, true
}

// protectedHit is the first protected location of a list a path's forms
// reach (protectedHitOf), and the form that reaches it. pr points into the
// list, which nothing writes once it is made (protectedForRoots, Protect):
// a decision keeps two hits for each of its paths (pathFacts.prot), and a
// copy of the location in each was most of the decision's memory.
type protectedHit struct {
	pr   *protected
	form string
	ok   bool
}

// protectedHitOf returns the first location of list that one of the
// forms of facts names, by protectedVerdict's rules: mutates says the
// request may change what it names, removes that it deletes or moves it.
func protectedHitOf(list []protected, facts *pathFacts, mutates, removes bool) protectedHit {
	forms, lforms := facts.forms, facts.lowerForms()
	linked := facts.links() // files with more than one name
	// The bytes the elements of each form start with: agent configuration
	// (a tail location) is reached only by a path with an element starting
	// as its rel does, most of it with a dot, which most paths have none
	// of.
	var startsBuf [2]byteSet
	starts := bufSlice(startsBuf[:], len(lforms))
	var all byteSet // of every form
	// No removal and no hard link: a plain tail location is reached
	// only through its rel's first byte.
	plain := !removes
	for i, lf := range lforms {
		starts[i] = elementStarts(lf)
		all = all.union(starts[i])
		plain = plain && linked[i] == nil
	}
	for k := 0; k < len(list); k++ {
		pr := &list[k]
		if plain && pr.run.passes(all) {
			k += pr.run.n - 1 // no location of the run is a hit (protect_runs.go)
			continue
		}
		if !mutates && !pr.Read {
			continue
		}
		for i, f := range forms {
			lf := lforms[i]
			hit := false
			// Neither beneath pr nor a nested copy of it (see tail).
			far := pr.tail && !starts[i].has(pr.lrel[0])
			for _, pf := range pr.lower {
				if !far && (beneath(pf, lf) || pr.lrel != "" && (starts[i].has('.') || pr.lrel[0] != '.') && nestedConfig(pf, pr.lrel, lf)) ||
					pr.Rotated && rotatedSiblingLower(pf, lf) || removes && beneath(lf, pf) {
					hit = true
				}
			}
			if !hit && linked[i] != nil && sameFile(linked[i], *pr) {
				hit = true
			}
			if hit {
				return protectedHit{pr: pr, form: f, ok: true}
			}
		}
	}
	return protectedHit{}
}

// configTail reports whether every one of lower ends with "/"+lrel, a
// relative path with no trailing "/" (protected.tail).
func configTail(lower []string, lrel string) bool {
	if lrel == "" || strings.HasPrefix(lrel, "/") || strings.HasSuffix(lrel, "/") {
		return false
	}
	for _, pf := range lower {
		if !strings.HasSuffix(pf, "/"+lrel) {
			return false
		}
	}
	return true
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)     { s[b>>6] |= 1 << (b & 63) }
func (s byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }

// elementStarts returns the first bytes of the elements of the absolute
// path p: the bytes that follow a "/".
func elementStarts(p string) byteSet {
	var s byteSet
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '/' {
			s.add(p[i+1])
		}
	}
	return s
}

// nestedConfig reports whether f is the agent configuration lrel, or
// beneath it, in a directory below the root pf is lrel of: lrel is a run
// of f's elements below that root. All three are in lower case.
func nestedConfig(pf, lrel, f string) bool {
	n := len(pf) - len(lrel) - 1
	if n < 0 || pf[n] != '/' || pf[n+1:] != lrel {
		return false
	}
	below, ok := cutDir(pf[:n], f)
	if !ok {
		return false
	}
	return anyIndex(below, lrel, func(j int) bool {
		end := j + len(lrel)
		return (j == 0 || below[j-1] == '/') && (end == len(below) || below[end] == '/')
	})
}

// rotatedSibling reports whether f is a file next to pf named
// "<name>.<suffix>" or ".<name>.<suffix>", compared without regard to
// case as restricting rules are.
func rotatedSibling(pf, f string) bool {
	return rotatedSiblingLower(strings.ToLower(pf), strings.ToLower(f))
}

// rotatedSiblingLower is rotatedSibling of paths already in lower case.
func rotatedSiblingLower(pf, f string) bool {
	dir, name := filepath.Split(pf)
	fdir, fname := filepath.Split(f)
	if dir != fdir {
		return false
	}
	// Any name beginning with the file's: "audit-log.jsonl.000001", and
	// "audit-log.jsonl-old" or "audit-log.jsonl~" too, which a reviewer's
	// "audit verify audit-log.jsonl*" reads as part of the log.
	longer := func(s string) bool { return len(s) > len(name) && s[:len(name)] == name }
	return longer(fname) || fname != "" && fname[0] == '.' && longer(fname[1:])
}

// sameFile reports whether fi, a file with more than one name, is pr's
// file (or one of its rotated siblings) under another name: a hard link
// made before the request. Files beneath a protected directory are not
// searched.
func sameFile(fi os.FileInfo, pr protected) bool {
	for _, pf := range pr.forms {
		if pi, err := os.Lstat(pf); err == nil && os.SameFile(fi, pi) {
			return true
		}
		if !pr.Rotated {
			continue
		}
		entries, _ := os.ReadDir(filepath.Dir(pf))
		for _, en := range entries {
			sib := filepath.Join(filepath.Dir(pf), en.Name())
			if !rotatedSibling(pf, sib) {
				continue
			}
			if si, err := en.Info(); err == nil && os.SameFile(fi, si) {
				return true
			}
		}
	}
	return false
}
