package governance

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// maxTreeWriteEntries bounds the entries one command's walk through what
// it changes looks at (a node_modules holds tens of thousands); past it
// the command is asked about. maxDecisionTreeEntries bounds those of all
// the walks of one decision together (a line of many commands each
// walking a large directory). Variables only so that tests can lower them.
var (
	maxTreeWriteEntries    = 200000
	maxDecisionTreeEntries = 400000
)

// treeWriteVerdict decides a command that changes files without naming
// them (treewrite_cmd.go) as changing each of them by name would: a file
// or directory beneath what it deletes, moves or changes whole, and the
// place a copy, move or link into a directory puts each source and what
// lies beneath it. Each is decided as a write, and what a move takes away
// as a read too (the files are read under their new name afterwards). A
// rule that denies, asks or escalates decides the command; so does a
// built-in refusal of the operand itself (outside the workspace roots).
// Nothing beneath is walked when no rule names paths to restrict (what a
// rule restricts as a whole, or the workspace roots, the operand's own
// decision shows); a walk past maxTreeWriteEntries asks the person. ok is
// false when nothing is refused.
func (e *Engine) treeWriteVerdict(in *reqInfo, c *shellcmd.Command, others bool) (verdict, bool) {
	w := e.newTreeWalk(in, c)
	w.others = others
	for _, form := range c.Forms {
		for _, dir := range e.dirsOrRoots(in, c.Dir) {
			w.manifests(form, dir)
			for _, act := range wholeActsOf(form, dir, in.roots) {
				f, ok := in.globOperands(act.form, act.cwd, nil)
				if !ok {
					return verdict{value: RequireApproval, ref: "unreadable-command",
						ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
						reason: fmt.Sprintf("running %q: a pattern of it matches more than %d files, too many to check against the policy", w.source, maxOperands)}, true
				}
				w.act(act, f)
			}
		}
	}
	return w.result()
}

// wholeActsOf is wholeActOf, once more for each work tree a git command's
// --work-tree names: its pathspecs may be read from there.
func wholeActsOf(form []shellcmd.Word, cwd string, roots []string) []wholeAct {
	act, ok := wholeActOf(form, cwd, roots)
	if !ok {
		return nil
	}
	acts := []wholeAct{act}
	if act.git {
		for _, t := range shellcmd.GitOptions(form).WorkTrees {
			if a, ok := wholeActOf(form, joinRaw(cwd, t.Text), roots); ok && t.Kind != shellcmd.Dynamic {
				acts = append(acts, a)
			}
		}
	}
	return acts
}

// act walks what one form, read as act with its globs expanded (f),
// changes without naming it.
func (w *treeWalk) act(act wholeAct, f []shellcmd.Word) {
	if act.git {
		if r, ok := findGitRepo(act.cwd); ok && r.movesWorkTree() {
			w.keep(verdict{value: Deny, ref: "git-worktree-elsewhere",
				ruleTx: "deny git commands that change files of a work tree the repository's configuration puts elsewhere (built-in)",
				reason: fmt.Sprintf("running %q: the repository at %s sets core.worktree, so %s changes files somewhere the line does not name", w.source, r.top, act.who)})
			return
		}
	}
	ops, dest, acted := actedOperands(act.name, f)
	var picks func(rel string, ent os.DirEntry) bool
	switch act.name {
	case "find":
		// -exec and -ok run a command of their own on each file,
		// decided as that command, and, when it may change the files
		// it is given, as changing each file the expression picks;
		// -delete deletes what its expression picks (findPicks), or
		// all when the bridge does not read the expression.
		acted = nil
		if hasWord(f, "-delete") {
			acted = ops
			picks = findPicks(f)
		} else if program, ok := findExecWrites(f); ok {
			// The command is given every file the expression picks,
			// which its own words show only as {}.
			acted, act.who = ops, "find -exec "+program
			picks = findPicks(f)
		}
	case "fd", "fdfind":
		// Its --exec command is given the files found, which its own
		// words do not show ("fd . keys -x rm"): acted is what it
		// searches (actedOperands), each file beneath decided as
		// changed, to err on the side of the rule.
	}
	if act.who == "git checkout-index" && w.checkoutIndex(act, f) {
		return
	}
	for _, op := range acted {
		if act.name == "mv" && op == dest {
			continue
		}
		w.changed(act, w.e.operandPath(act.cwd, op), picks)
	}
	for _, t := range w.e.copyTargets(act.name, f, act.cwd) {
		w.placed(act, t)
	}
	for _, d := range clearedDirs(f) {
		w.changed(wholeAct{who: act.who, name: "rm", form: f, cwd: act.cwd}, w.e.operandPath(act.cwd, d), nil)
	}
	for _, to := range renamedTo(act.name, ops) {
		p := w.e.operandPath(act.cwd, to)
		if v, ok := w.refused(p, false, true, true); ok {
			v.reason = fmt.Sprintf("running %q: %s gives a file the name %s: %s", w.source, act.who, to, v.reason)
			w.keep(v)
		}
	}
	if ops, base, ok := archivedAway(act.name, f); ok {
		away := wholeAct{who: act.who, name: "rm", form: f, cwd: joinRaw(act.cwd, base)}
		for _, op := range ops {
			w.changed(away, w.e.operandPath(away.cwd, op), nil)
		}
	}
}

// checkoutIndex decides git checkout-index given a --prefix as writing
// each file checkoutIndexWrites names, there or not (the files it checks
// out are put there, not in place), and asks when the bridge cannot tell
// which. It reports false for one without a prefix, left to the walk of
// its operands.
func (w *treeWalk) checkoutIndex(act wholeAct, f []shellcmd.Word) bool {
	paths, prefixed, ok := checkoutIndexWrites(f, act.cwd)
	if !prefixed {
		return false
	}
	if !ok {
		w.keep(verdict{value: RequireApproval, ref: "unreadable-command",
			ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
			reason: fmt.Sprintf("running %q: git checkout-index writes its files beneath a prefix, and the bridge cannot tell which files (a word known only when it runs, an index it cannot read, or more than %d files)", w.source, maxCheckoutIndexWrites)})
		return true
	}
	for _, p := range paths {
		if v, ok := w.refused(p, false, true, true); ok {
			v.reason = fmt.Sprintf("running %q: git checkout-index writes %s: %s", w.source, p, v.reason)
			w.keep(v)
		}
	}
	return true
}

// restrictingPathRules returns the rules of the policy that deny, ask
// about or escalate paths they name by a pattern (Edit(./keys/**),
// Read(**/.env)): only such a rule can refuse a file beneath a directory
// that the directory's own decision allows. NewEngine keeps them
// (Engine.restricting); every command's walk reads them.
func (e *Engine) restrictingPathRules() []*rule {
	var out []*rule
	for _, cat := range [...]category{catRead, catWrite, catPath} {
		for _, r := range e.rulesFor(cat) {
			if r.value != Allow && !r.advisory && r.path != nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// treeWalk is one command's walk through what it changes without naming.
type treeWalk struct {
	e      *Engine
	in     *reqInfo
	source string
	worst  strictest
	// rules are the policy's rules that deny, ask about or escalate paths
	// named by a pattern (restrictingPathRules); without one nothing
	// beneath a directory is walked.
	rules []*rule
	deep  bool // len(rules) > 0
	// others says the line runs other commands, which may change git's
	// index before this one runs.
	others bool
	// indexes are the git indexes read, by the directory git ran in.
	indexes map[string]*gitTracked
}

// gitIndex returns the index of the repository git finds from dir, read
// once per walk.
func (w *treeWalk) gitIndex(dir string) (*gitTracked, bool) {
	if t, ok := w.indexes[dir]; ok {
		return t, t != nil
	}
	t, ok := loadGitTracked(dir)
	if !ok {
		t = nil
	}
	if w.indexes == nil {
		w.indexes = map[string]*gitTracked{}
	}
	w.indexes[dir] = t
	return t, ok
}

// gitMoved reports whether git may read another index than its work
// tree's: --git-dir or --work-tree on the line, or GIT_INDEX_FILE,
// GIT_DIR, GIT_WORK_TREE or GIT_COMMON_DIR set by the request or the
// line.
func (w *treeWalk) gitMoved() bool {
	for _, e := range w.in.req.Env {
		if gitLocators[e.Name] {
			return true
		}
	}
	for n := range gitLocators {
		if strings.Contains(w.in.req.Command, n) || strings.Contains(w.source, n) {
			return true
		}
	}
	return strings.Contains(w.source, "--git-dir") || strings.Contains(w.source, "--work-tree")
}

// gitLocators are the variables that tell git where its repository and
// index are.
var gitLocators = map[string]bool{"GIT_INDEX_FILE": true, "GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_COMMON_DIR": true}

// newTreeWalk starts the walk of c.
func (e *Engine) newTreeWalk(in *reqInfo, c *shellcmd.Command) treeWalk {
	return treeWalk{e: e, in: in, source: strings.TrimSpace(c.Source), rules: e.restricting, deep: len(e.restricting) > 0}
}

// candidate reports whether an entry beneath a walked directory, whose
// path is p as the command names it and resolved as the file system
// resolves its parent, can be refused: a rule of w.rules matches either
// path, it is a symlink (decided where it leads), or, when links, a
// regular file with other names (hard links). Every other entry is
// decided as the directory's own decision already says, and is passed
// over without looking it up.
func (w *treeWalk) candidate(p, resolved string, ent os.DirEntry, links bool) bool {
	roots, lower := w.in.roots, w.in.lowerRoots()
	for _, q := range [...]string{p, resolved} {
		s := newPathSubject(q)
		for _, r := range w.rules {
			if r.path.matchSubject(&s, roots, lower, r.fold()) {
				return true
			}
		}
	}
	if ent.Type()&os.ModeSymlink != 0 {
		return true
	}
	if links && ent.Type().IsRegular() {
		if fi, err := ent.Info(); err == nil && hasLinks(fi) {
			return true
		}
	}
	return false
}

// resolvedDir returns dir with its symlinks resolved, as far as it exists
// (the rest appended as written), for matching the entries beneath it as
// the file system places them.
func resolvedDir(dir string) string {
	for d, rest := dir, ""; ; {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return r + rest
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		rest = "/" + filepath.Base(d) + rest
		d = parent
	}
}

// result is the strictest refusal the walk found; ok is false for none.
func (w *treeWalk) result() (verdict, bool) { return w.worst.result() }

// keep records v when it is stricter than what the walk found so far.
func (w *treeWalk) keep(v verdict) { w.worst.keep(v) }

// changed walks op, which act deletes, moves or changes with everything
// beneath it, deciding the entries picks keeps (all when nil). A remover
// acts on a symlink, not where it leads; a modifier (chmod, chown, ...)
// follows one given as the operand, and with -L every one beneath.
func (w *treeWalk) changed(act wholeAct, op string, picks func(rel string, ent os.DirEntry) bool) {
	w.changedAt(act, op, picks)
	findTop, _ := findFollows(act)
	if !recursiveModifiers[act.name] && !findTop && !strings.HasSuffix(op, "/") && len(w.in.links.at(cleanPath(op))) > 0 {
		return // a remover given a link's own name acts on the link
	}
	for _, f := range w.in.keptForms(op) {
		w.changedAt(act, f, picks) // where a kept link leads (links_trees.go)
	}
}

// changedAt is changed of op as the file system shows it now.
func (w *treeWalk) changedAt(act wholeAct, op string, picks func(rel string, ent os.DirEntry) bool) {
	modifier := recursiveModifiers[act.name]
	findTop, findAll := findFollows(act)
	stat := os.Lstat
	if modifier || findTop {
		stat = os.Stat
	}
	fi, err := stat(op)
	if err != nil {
		return // nothing there to change
	}
	moved := removesAsMove(act.name)
	// Deleting or renaming one name of a file with several leaves its
	// other names as they were; changing its mode changes them all.
	links := !removers[act.name]
	what := fmt.Sprintf("%s changes everything beneath %s", act.who, op)
	if v, ok := w.refused(op, moved, true, true); ok {
		v.reason = fmt.Sprintf("running %q: %s, %s", w.source, what, v.reason)
		w.keep(v)
		if v.value == Deny {
			return
		}
	}
	// A modifier changes what is beneath only with -R (chmod 755 dir
	// changes dir alone).
	if !fi.IsDir() || !w.deep || modifier && !modifierRecursive(act.form) {
		return
	}
	if act.tracked && !w.others && !gitFromCommit(act.form) && !w.gitMoved() {
		// Only what the index holds: an ignored .env beneath is left
		// alone. The index is the repository's git finds from where it
		// runs; one the bridge cannot read counts every file.
		if idx, ok := w.gitIndex(act.cwd); ok && idx.within(op) {
			inner, rop := picks, resolvedDir(op)
			picks = func(rel string, ent os.DirEntry) bool {
				return idx.holds(rop+"/"+rel) && (inner == nil || inner(rel, ent))
			}
		}
	}
	w.beneath(op, what, act.git, modifier && shortFlag(act.form, 'L') || findAll, moved, links, picks)
}

// beneath walks dir for changed and linked: each entry picks keeps (all
// when nil) that may be refused (candidate) is decided (refused), the
// first refusal recorded with what the command does (what).
func (w *treeWalk) beneath(dir, what string, skipGit, follow, moved, links bool, picks func(rel string, ent os.DirEntry) bool) {
	// A link kept beneath is met where it leads by a walk that follows
	// links, and a hard one by a command that changes every name of a
	// file; one whose target is not known, by either.
	kept := func(l madeLink) bool {
		return follow && !l.hard && (l.symlink() || l.target == "") || links && (l.hard || l.target == "")
	}
	w.walk(dir, skipGit, follow, kept, func(p, rel, resolved string, ent os.DirEntry) bool {
		if picks != nil && !picks(rel, ent) || !w.candidate(p, resolved, ent, links) {
			return false
		}
		v, ok := w.refused(p, moved, false, links)
		if ok {
			v.reason = fmt.Sprintf("running %q: %s, which holds %s: %s", w.source, what, p, v.reason)
			w.keep(v)
		}
		return ok && v.value == Deny // a question found first may hide a refusal deeper in
	})
}

// placed decides where a copy, move or link puts one source, and, for a
// tree copy of a directory, where each file beneath the source lands.
func (w *treeWalk) placed(act wholeAct, t copyTarget) {
	what := fmt.Sprintf("%s puts %s at %s", act.who, t.src, t.made)
	if v, ok := w.refused(t.made, false, true, true); ok {
		v.reason = fmt.Sprintf("running %q: %s, %s", w.source, what, v.reason)
		w.keep(v)
		if v.value == Deny {
			return
		}
	}
	stat := os.Lstat
	if t.followTop {
		stat = os.Stat
	}
	fi, err := stat(t.src)
	if err != nil || !t.tree || !fi.IsDir() || !w.deep {
		return
	}
	// Where each destination directory leads, looked up once: a
	// directory of the destination may be a symlink ("dest/sub" leading
	// to keys), which the copy writes through.
	parents := map[string]string{}
	resolvedParent := func(rel string) string {
		d := path.Dir(rel)
		if r, ok := parents[d]; ok {
			return r
		}
		r := resolvedDir(t.made + "/" + d)
		parents[d] = r
		return r
	}
	w.walk(t.src, false, t.follow, nil, func(p, rel, _ string, ent os.DirEntry) bool {
		dst := t.made + "/" + rel
		if t.backup != "" && exists(dst) {
			// The file replaced is kept under its name and the suffix.
			if v, ok := w.refused(dst+t.backup, false, false, true); ok {
				v.reason = fmt.Sprintf("running %q: %s, and backs up %s as %s: %s", w.source, what, dst, dst+t.backup, v.reason)
				w.keep(v)
				if v.value == Deny {
					return true
				}
			}
		}
		if !w.candidate(dst, resolvedParent(rel)+"/"+path.Base(rel), ent, false) && !overwritesLink(dst) {
			return false
		}
		v, ok := w.refused(dst, false, false, true)
		if ok {
			v.reason = fmt.Sprintf("running %q: %s, and %s lands at %s: %s", w.source, what, p, dst, v.reason)
			w.keep(v)
		}
		return ok && v.value == Deny
	})
}

// walk calls visit with every entry beneath dir (its path, its path
// relative to dir, and its path with the symlinks above it resolved),
// following symlinks to directories when follow says so, until visit
// returns true; skipGit passes over ".git" directories, which git's own
// commands leave alone. A directory beneath that cannot be listed (a
// mode that lets a command pass through it, or move or change it, but
// not read it) records a require-approval: what it holds is not known.
// Past maxTreeWriteEntries entries of this walk, or the decision's
// maxDecisionTreeEntries, it records a require-approval instead.
//
// kept, when not nil, picks the kept links (links_made.go) whose names lie
// beneath a directory the walk reached that it visits too, as a
// symlink entry (keptEntry) named as the link will be, and, following
// links, goes on where they lead: the line making one may still be
// running, and this command meets it once it has run.
func (w *treeWalk) walk(dir string, skipGit, follow bool, kept func(madeLink) bool, visit func(p, rel, resolved string, ent os.DirEntry) bool) {
	type item struct{ path, rel, resolved string }
	stack := []item{{dir, "", resolvedDir(dir)}}
	seen := map[string]bool{}
	budget := maxTreeWriteEntries
	// reached holds each directory the walk reached, as reached and as
	// resolved, with its path relative to dir; done the kept links
	// already visited.
	reached, done := map[string]string{}, map[string]bool{}
	if kept == nil || w.in.links == nil || w.in.links.n.Load() == 0 {
		reached = nil
	}
	for len(stack) > 0 || reached != nil {
		if len(stack) == 0 {
			more := w.in.keptBeneath(func(d string) bool { _, ok := reached[d]; return ok }, done)
			if len(more) == 0 {
				return
			}
			for _, l := range more {
				if !kept(l) {
					continue
				}
				rel := keptRel(reached, l.name)
				if visit(l.name, rel, l.name, keptEntry(filepath.Base(l.name))) {
					return
				}
				if !follow || l.hard {
					continue
				}
				for _, f := range w.in.keptForms(l.name) {
					if fi, err := os.Stat(f); err == nil && fi.IsDir() {
						stack = append(stack, item{f, rel, f})
					}
				}
			}
			continue
		}
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reached != nil {
			reached[d.path], reached[d.resolved] = d.rel, d.rel
		}
		if follow {
			if seen[d.resolved] {
				continue
			}
			seen[d.resolved] = true
		}
		ents, err := os.ReadDir(d.path)
		if err != nil && !os.IsNotExist(err) {
			w.keep(verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("running %q: it changes everything beneath %s, and %s cannot be listed to check for files the policy protects (%v)", w.source, dir, d.path, err)})
		}
		for _, ent := range ents {
			if reason := w.count(&budget); reason != "" {
				w.keep(verdict{value: RequireApproval, ref: "unreadable-command",
					ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
					reason: fmt.Sprintf("running %q: it changes everything beneath %s, %s for files the policy protects", w.source, dir, reason)})
				return
			}
			if skipGit && ent.Name() == ".git" {
				continue
			}
			it := item{strings.TrimSuffix(d.path, "/") + "/" + ent.Name(), ent.Name(), strings.TrimSuffix(d.resolved, "/") + "/" + ent.Name()}
			if d.rel != "" {
				it.rel = d.rel + "/" + ent.Name()
			}
			if visit(it.path, it.rel, it.resolved, ent) {
				return
			}
			isDir := ent.IsDir()
			if follow && ent.Type()&os.ModeSymlink != 0 {
				if r, err := filepath.EvalSymlinks(it.path); err == nil {
					if fi, err := os.Stat(r); err == nil && fi.IsDir() {
						isDir, it.resolved = true, r
					}
				}
			}
			if isDir {
				stack = append(stack, it)
			}
		}
	}
}

// count takes one entry from a walk's budget and the decision's, and
// says which ran out, "" while both last.
func (w *treeWalk) count(budget *int) string {
	if *budget--; *budget < 0 {
		return fmt.Sprintf("too large to check (more than %d entries)", maxTreeWriteEntries)
	}
	if m := w.in.memo; m != nil {
		if m.treeEntries++; m.treeEntries > maxDecisionTreeEntries {
			return fmt.Sprintf("and the line's commands together change too much to check (more than %d entries)", maxDecisionTreeEntries)
		}
	}
	return ""
}

// refused decides p as written (and read too, when moved) and reports a
// decision a rule or a built-in refusal makes that is not allow. The
// default does not count (a command's operands are written under the
// rule that allows the command), nor, below the operand itself (top
// false), the workspace roots: a link beneath leading out is removed or
// changed as a link; nor, unless links, a file's other names (hard links).
func (w *treeWalk) refused(p string, moved, top, links bool) (verdict, bool) {
	var worst strictest
	for _, read := range [...]bool{false, true} {
		if read && !moved {
			break
		}
		sub := *w.in
		sub.read, sub.write, sub.command, sub.opaque = read, !read, false, false
		sub.transient = !top
		sub.defaultLast = true
		var scratch []string
		v := w.e.decidePath(&sub, p, &scratch)
		worst.keepIf(v, v.value != Allow && v.ref != "default" && (v.ref != "workspace-roots" || top) && (v.ref != "hard-link" || links))
	}
	return worst.result()
}

// removesAsMove reports whether the program, as decided, gives what it
// takes away another name rather than deleting it: mv, rename and mount
// (a bind mount opens the files under another path).
func removesAsMove(name string) bool {
	switch name {
	case "mv", "rename", "prename", "file-rename", "perl-rename", "mount":
		return true
	}
	return false
}

// overwritesLink reports whether a copy onto dst writes through a link:
// dst is a symlink (cp opens where it leads) or a regular file with other
// names.
func overwritesLink(dst string) bool {
	fi, err := os.Lstat(dst)
	return err == nil && (fi.Mode()&os.ModeSymlink != 0 || fi.Mode().IsRegular() && hasLinks(fi))
}
