package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
	"mvdan.cc/sh/v3/syntax"
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
	// Rotated also protects the files next to Path named after it with a
	// suffix, "<name>.<suffix>" and ".<name>.<suffix>": rotated audit logs
	// (audit.jsonl.000001) and their lock (.audit.jsonl.lock).
	Rotated bool
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
// submodule's directory beneath it.
var agentConfig = []struct {
	rel, what string
	dir       bool
	elem      bool // a name too common in text (".git" is in ".gitignore") to look for in a command line
}{
	{".claude/settings.json", "Claude Code's project settings, whose hooks run commands", false, false},
	{".claude/settings.local.json", "Claude Code's local project settings, whose hooks run commands", false, false},
	{".mcp.json", "the project's MCP servers, each a command the agent starts", false, false},
	{".gemini/settings.json", "Gemini CLI's project settings", false, false},
	{".gemini/policies", "Gemini CLI's project policies", true, false},
	{".zed/settings.json", "Zed's project settings, which can change the agent command", false, false},
	{".vscode/settings.json", "VS Code's workspace settings", false, false},
	{".git/config", "the repository's git configuration, whose core.fsmonitor, core.hooksPath and aliases run commands", false, false},
	{".git/hooks", "the repository's git hooks, commands git runs", true, false},
	{".git", "a repository's .git, a directory or a file naming one, where git finds configuration and hooks that run commands", true, true},
	{".envrc", "direnv's .envrc, a script direnv runs in the workspace", false, false},
	{".vscode/tasks.json", "VS Code's tasks, commands the IDE runs", false, false},
	{".zed/tasks.json", "Zed's tasks, commands the IDE runs", false, false},
	{".idea/runConfigurations", "JetBrains run configurations, commands the IDE runs", true, false},
}

// protectedFor returns the locations protected for a request: the
// engine's own, and the agent configuration beneath each workspace root.
// The list for a set of roots is kept until Protect changes the engine's.
func (e *Engine) protectedFor(in *reqInfo) []protected {
	own := e.protected.Load()
	list := e.protectedList()
	if len(in.roots) == 0 {
		return list
	}
	key := strings.Join(in.roots, "\x00")
	if c, ok := e.protectCache.Load(key); ok && c.(*protectedSet).own == own {
		return c.(*protectedSet).all
	}
	out := make([]protected, 0, len(list)+len(agentConfig))
	out = append(out, list...)
	for _, c := range agentConfig {
		pr := protected{ProtectedPath: ProtectedPath{Path: in.roots[0] + "/" + c.rel, What: c.what}, rel: c.rel, lrel: strings.ToLower(c.rel), elem: c.elem}
		for _, r := range in.roots {
			pr.forms = append(pr.forms, r+"/"+c.rel)
		}
		pr.lower = lowerAll(pr.forms)
		out = append(out, pr)
	}
	e.protectCache.Store(key, &protectedSet{own: own, all: out})
	return out
}

// protectedSet is a cached protectedFor result, valid while the engine's
// own list is own.
type protectedSet struct {
	own *[]protected
	all []protected
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
	for _, p := range ps {
		if p.Path == "" {
			continue
		}
		c, err := filepath.Abs(p.Path) // relative to the bridge's directory, as it opened the file
		if err != nil {
			c = absPath(p.Path, "/", e.home)
		}
		pr := protected{ProtectedPath: p, forms: []string{c}}
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
	e.protected.Store(&list)
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
		if p.Read {
			tools = append(tools, "Read")
		}
		for _, g := range globs {
			for _, t := range tools {
				out = append(out, fmt.Sprintf("deny %s(%s)%s", t, g, where))
			}
		}
	}
	for _, c := range agentConfig {
		glob := "./" + c.rel
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
	if !h.ok {
		return verdict{}, false
	}
	rule := "deny changes to %s (built-in self-protection)"
	if h.pr.Read {
		rule = "deny any access to %s (built-in self-protection)"
	}
	return verdict{value: Deny, ref: "self-protection", ruleTx: fmt.Sprintf(rule, h.pr.What),
		reason: fmt.Sprintf("%s %s: %s is protected from the agent, whatever the policy says", e.describeAction(in), h.form, h.pr.What)}, true
}

// protectedHit is the first protected location of a list a path's forms
// reach (protectedHitOf), and the form that reaches it.
type protectedHit struct {
	pr   protected
	form string
	ok   bool
}

// protectedHitOf returns the first location of list that one of the
// forms of facts names, by protectedVerdict's rules: mutates says the
// request may change what it names, removes that it deletes or moves it.
func protectedHitOf(list []protected, facts *pathFacts, mutates, removes bool) protectedHit {
	forms, lforms := facts.forms, facts.lowerForms()
	linked := facts.links() // files with more than one name
	for _, pr := range list {
		if !mutates && !pr.Read {
			continue
		}
		for i, f := range forms {
			hit := false
			for _, pf := range pr.lower {
				if beneath(pf, lforms[i]) || pr.Rotated && rotatedSiblingLower(pf, lforms[i]) || removes && beneath(lforms[i], pf) ||
					pr.lrel != "" && nestedConfig(pf, pr.lrel, lforms[i]) {
					hit = true
				}
			}
			if !hit && linked[i] != nil && sameFile(linked[i], pr) {
				hit = true
			}
			if hit {
				return protectedHit{pr: pr, form: f, ok: true}
			}
		}
	}
	return protectedHit{}
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
	for i := 0; i+len(lrel) <= len(below); {
		j := strings.Index(below[i:], lrel)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(lrel)
		if (j == 0 || below[j-1] == '/') && (end == len(below) || below[end] == '/') {
			return true
		}
		i = j + 1
	}
	return false
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
	dotted := func(s string) bool { // s starts with name + "."
		return len(s) > len(name) && s[:len(name)] == name && s[len(name)] == '.'
	}
	return dotted(fname) || fname != "" && fname[0] == '.' && dotted(fname[1:])
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

// protectedCommand denies a command line run inside a protected directory,
// or that names a protected location:
// its path as written in absolute form, relative to the command's
// directory, or (for a file) by its name alone, anywhere in the line once
// quotes and backslashes are taken out (so `> GOVERN”ANCE.md` and
// redirections count), or a glob word that can expand to it; and, on the
// words the shell parser computes (quotes removed, $'..' decoded, braces
// expanded, as decideCommand sees them), a word that is it or holds it,
// and a word built at run time ($X, $(...)) whose static parts could join
// to it. A command can do anything to a file it names, so reads count
// too; see docs/security.md.
func (e *Engine) protectedCommand(in *reqInfo) (verdict, bool) {
	list := e.protectedFor(in)
	if len(list) == 0 {
		return verdict{}, false
	}
	line := in.req.Command + " " + strings.Join(in.req.Argv, " ")
	cwd := filepath.Clean(in.req.Cwd)
	lines := in.commandLines()
	cwdForms, _ := in.pathForms(cwd)
	lcwd := lowerAll(cwdForms)
	t := e.lineTextOf(in, list, line, lines, cwd)
	k := 0
	for _, pr := range list {
		for j, pf := range pr.forms {
			for _, c := range lcwd {
				if beneath(pr.lower[j], c) {
					return verdict{value: Deny, ref: "self-protection",
						ruleTx: fmt.Sprintf("deny commands run inside %s (built-in self-protection)", pr.What),
						reason: fmt.Sprintf("running %q in %s: the directory is %s, which is protected from the agent, whatever the policy says", strings.TrimSpace(line), cwd, pr.What)}, true
				}
			}
			if k == t.named {
				return verdict{value: Deny, ref: "self-protection",
					ruleTx: fmt.Sprintf("deny commands naming %s (built-in self-protection)", pr.What),
					reason: fmt.Sprintf("running %q: it names %s (%s), which is protected from the agent, whatever the policy says", strings.TrimSpace(line), pr.What, pf)}, true
			}
			k++
		}
	}
	return e.protectedOperands(in, list, line, lines, cwd, t.names, t.namesOK)
}

// cmdWords are the words of a command line as the shell parser computes
// them, in lower case: static values (and their paths resolved against
// the command's directory) and the static pieces of words built at run
// time.
type cmdWords struct {
	static []string   // values, and absolute cleaned forms of them
	pieces [][]string // per run-time word: its static pieces, split where it expands; first and last may be ""
}

// commandWords collects the words of every form and redirection of the
// analyses of a command line (commandLines).
func commandWords(lines []*shellcmd.Analysis, cwd string) cmdWords {
	var cw cmdWords
	add := func(w shellcmd.Word) {
		switch w.Kind {
		case shellcmd.Static:
			v := strings.ToLower(w.Text)
			if v == "" {
				return
			}
			cw.static = append(cw.static, v)
			if !strings.HasPrefix(v, "/") {
				v = cwd + "/" + v
			}
			cw.static = append(cw.static, strings.ToLower(filepath.Clean(v)))
		case shellcmd.Dynamic:
			if p := staticPieces(w.Text); p != nil {
				if !strings.HasPrefix(p[0], "/") {
					// the expansion may start with anything, so only a
					// first piece after it is relative to the directory
					abs := append([]string(nil), p...)
					if p[0] != "" {
						abs[0] = strings.ToLower(filepath.Clean(cwd + "/" + p[0]))
						if strings.HasSuffix(p[0], "/") && abs[0] != "/" {
							abs[0] += "/"
						}
						cw.pieces = append(cw.pieces, abs)
					}
				}
				cw.pieces = append(cw.pieces, p)
			}
		}
	}
	eachWord(lines, add)
	return cw
}

// staticPieces parses a word as written and returns its static pieces in
// lower case, split at each expansion done at run time: ["pre", "", "suf"]
// for pre${X}$(y)suf. It returns nil for a word that does not parse or
// holds no expansion.
func staticPieces(text string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 1 || len(call.Assigns) != 0 {
		return nil
	}
	out := []string{""}
	lit := func(s string) { out[len(out)-1] += strings.ToLower(s) }
	cut := func() {
		if out[len(out)-1] != "" || len(out) == 1 {
			out = append(out, "")
		}
	}
	split := false
	for _, part := range call.Args[0].Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			lit(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			lit(p.Value)
		case *syntax.DblQuoted:
			split = split || p.Dollar // $"..." is translated at run time, usually to itself
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					lit(l.Value)
				} else {
					cut()
					split = true
				}
			}
		default:
			cut()
			split = true
		}
	}
	if !split {
		return nil
	}
	return out
}

// names reports whether the words name the protected location lower
// (absolute, lower case), or needles (its path relative to the
// directory, its name alone; "" for none): a static word that is it,
// beneath it, or holds a needle; a run-time word whose static pieces
// could join to it or to a needle. dir: the location is a directory, so
// its name alone is no needle.
func (cw cmdWords) names(lower string, needles []string, dir bool) bool {
	for _, w := range cw.static {
		if beneath(lower, w) {
			return true
		}
		for _, n := range needles {
			if n != "" && strings.Contains(w, n) {
				return true
			}
		}
	}
	for _, p := range cw.pieces {
		if couldJoin(p, lower) {
			return true
		}
		for _, n := range needles {
			if n != "" && couldJoin(p, n) {
				return true
			}
		}
	}
	return false
}

// couldJoin reports whether pieces, static text with expansions between
// them, could make a word holding n: n starts with the first piece's end
// (or the first is empty), ends with the last piece's start, with the
// pieces between in order, and the static text covers more than half of
// n, so `$F.md` does not name every .md file. A word that expands to n
// and more beyond it counts too: a path beneath n.
func couldJoin(pieces []string, n string) bool {
	total := 0
	for _, p := range pieces {
		total += len(p)
	}
	if 2*total <= len(n) {
		return false
	}
	first, last := pieces[0], pieces[len(pieces)-1]
	if len(pieces) == 1 {
		// no split point ($"..." alone): the piece is the value
		return strings.Contains(first, n)
	}
	rest := n
	if first != "" {
		// the first piece ends with a prefix of n, or holds n whole
		if strings.Contains(first, n) {
			return true
		}
		k := -1
		for i := len(first); i > 0; i-- {
			if strings.HasPrefix(n, first[len(first)-i:]) && (i == len(first) || strings.HasSuffix(first[:len(first)-i], "/")) {
				k = i
				break
			}
		}
		if k < 0 {
			return false
		}
		rest = n[k:]
	}
	for _, m := range pieces[1 : len(pieces)-1] {
		i := strings.Index(rest, m)
		if i < 0 {
			return false
		}
		rest = rest[i+len(m):]
	}
	if last == "" {
		return true
	}
	if strings.Contains(last, n) {
		return true
	}
	// the last piece starts with a suffix of rest (the word goes on
	// beneath n, or n is its end)
	for i := min(len(last), len(rest)); i > 0; i-- {
		if strings.HasSuffix(rest, last[:i]) && (i == len(last) || strings.HasPrefix(last[i:], "/")) {
			return true
		}
	}
	return false
}

// eachWord calls f with every word of every form of every command of
// lines, and every redirection target.
func eachWord(lines []*shellcmd.Analysis, f func(shellcmd.Word)) {
	for _, a := range lines {
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				for _, w := range form {
					f(w)
				}
			}
		}
		for _, r := range a.Redirects {
			f(r.Target)
		}
	}
}
