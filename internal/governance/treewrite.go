package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
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
// decision shows); a walk past maxTreeEntries asks the person. ok is false
// when nothing is refused.
func (e *Engine) treeWriteVerdict(in *reqInfo, c *shellcmd.Command) (verdict, bool) {
	w := e.newTreeWalk(in, c)
	for _, form := range c.Forms {
		for _, dir := range e.dirsOrRoots(in, c.Dir) {
			act, ok := wholeActOf(form, dir, in.roots)
			if !ok {
				continue
			}
			f, ok := in.globOperands(act.form, act.cwd, nil)
			if !ok {
				return verdict{value: RequireApproval, ref: "unreadable-command",
					ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
					reason: fmt.Sprintf("running %q: a pattern of it matches more than %d files, too many to check against the policy", w.source, maxOperands)}, true
			}
			ops, dest, acts := actedOperands(act.name, f)
			switch act.name {
			case "find":
				// -exec and -ok run a command of their own on each
				// file, decided as that command; -delete deletes.
				acts = slices.ContainsFunc(f[1:], func(w shellcmd.Word) bool { return w.Kind == shellcmd.Static && w.Text == "-delete" })
			case "fd", "fdfind":
				acts = false // its --exec command is decided as a command of its own
			}
			for _, op := range ops {
				if !acts || act.name == "mv" && op == dest {
					continue
				}
				w.changed(act, e.operandPath(act.cwd, op))
			}
			for _, t := range e.copyTargets(act.name, f, act.cwd) {
				w.placed(act, t)
			}
			if ops, base, ok := archivedAway(act.name, f); ok {
				away := wholeAct{who: act.who, name: "rm", form: f, cwd: joinRaw(act.cwd, base)}
				for _, op := range ops {
					w.changed(away, e.operandPath(away.cwd, op))
				}
			}
		}
	}
	return w.result()
}

// restrictsPaths reports whether a rule of the policy denies, asks about
// or escalates paths it names by a pattern (Edit(./keys/**),
// Read(**/.env)): only such a rule can refuse a file beneath a directory
// that the directory's own decision allows.
func (e *Engine) restrictsPaths() bool {
	for _, cat := range [...]category{catRead, catWrite, catPath} {
		for _, r := range e.rulesFor(cat) {
			if r.value != Allow && !r.advisory && r.path != nil {
				return true
			}
		}
	}
	return false
}

// treeWalk is one command's walk through what it changes without naming.
type treeWalk struct {
	e      *Engine
	in     *reqInfo
	source string
	budget int
	worst  *verdict
	// deep says a rule restricts paths by a pattern, so what lies beneath
	// a directory is walked (restrictsPaths).
	deep bool
}

// newTreeWalk starts the walk of c.
func (e *Engine) newTreeWalk(in *reqInfo, c *shellcmd.Command) treeWalk {
	return treeWalk{e: e, in: in, source: strings.TrimSpace(c.Source), budget: maxTreeEntries, deep: e.restrictsPaths()}
}

// result is the strictest refusal the walk found; ok is false for none.
func (w *treeWalk) result() (verdict, bool) {
	if w.worst == nil {
		return verdict{}, false
	}
	return *w.worst, true
}

// keep records v when it is stricter than what the walk found so far.
func (w *treeWalk) keep(v verdict) {
	if w.worst == nil || v.value.Stricter(w.worst.value) {
		w.worst = &v
	}
}

// changed walks op, which act deletes, moves or changes with everything
// beneath it. Symlinks beneath are decided by their own names, not
// followed: rm, find -delete, chmod -R and git act on the link.
func (w *treeWalk) changed(act wholeAct, op string) {
	fi, err := os.Lstat(op)
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
		return
	}
	if !fi.IsDir() || !w.deep {
		return
	}
	w.walk(op, act.git, func(p string) bool {
		v, ok := w.refused(p, moved, false, links)
		if ok {
			v.reason = fmt.Sprintf("running %q: %s, which holds %s: %s", w.source, what, p, v.reason)
			w.keep(v)
		}
		return ok
	})
}

// placed decides where a copy, move or link puts one source, and, for a
// tree copy of a directory, where each file beneath the source lands.
func (w *treeWalk) placed(act wholeAct, t copyTarget) {
	what := fmt.Sprintf("%s puts %s at %s", act.who, t.src, t.made)
	if v, ok := w.refused(t.made, false, true, true); ok {
		v.reason = fmt.Sprintf("running %q: %s, %s", w.source, what, v.reason)
		w.keep(v)
		return
	}
	fi, err := os.Lstat(t.src)
	if err != nil || !t.tree || !fi.IsDir() || !w.deep {
		return
	}
	base := strings.TrimSuffix(t.src, "/")
	w.walk(t.src, false, func(p string) bool {
		dst := t.made + strings.TrimPrefix(p, base)
		v, ok := w.refused(dst, false, false, true)
		if ok {
			v.reason = fmt.Sprintf("running %q: %s, and %s lands at %s: %s", w.source, what, p, dst, v.reason)
			w.keep(v)
		}
		return ok
	})
}

// walk calls visit with every entry beneath dir, without following
// symlinks, until visit returns true; skipGit passes over ".git"
// directories, which git's own commands leave alone. Past the walk's
// budget it records a require-approval instead.
func (w *treeWalk) walk(dir string, skipGit bool, visit func(p string) bool) {
	stack := []string{dir}
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ents, err := os.ReadDir(d)
		if err != nil {
			continue // the command cannot read it either
		}
		for _, ent := range ents {
			if w.budget--; w.budget < 0 {
				w.keep(verdict{value: RequireApproval, ref: "unreadable-command",
					ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
					reason: fmt.Sprintf("running %q: it changes everything beneath %s, too large to check (more than %d entries) for files the policy protects", w.source, dir, maxTreeEntries)})
				return
			}
			if skipGit && ent.Name() == ".git" {
				continue
			}
			p := strings.TrimSuffix(d, "/") + "/" + ent.Name()
			if visit(p) {
				return
			}
			if ent.IsDir() {
				stack = append(stack, p)
			}
		}
	}
}

// refused decides p as written (and read too, when moved) and reports a
// decision a rule or a built-in refusal makes that is not allow. The
// default does not count (a command's operands are written under the
// rule that allows the command), nor, below the operand itself (top
// false), the workspace roots: a link beneath leading out is removed or
// changed as a link; nor, unless links, a file's other names (hard links).
func (w *treeWalk) refused(p string, moved, top, links bool) (verdict, bool) {
	var worst *verdict
	for _, read := range [...]bool{false, true} {
		if read && !moved {
			break
		}
		sub := *w.in
		sub.read, sub.write, sub.command, sub.opaque = read, !read, false, false
		var scratch []string
		v := w.e.decidePath(&sub, p, &scratch)
		if v.value == Allow || v.ref == "default" || v.ref == "workspace-roots" && !top || v.ref == "hard-link" && !links {
			continue
		}
		if worst == nil || v.value.Stricter(worst.value) {
			worst = &v
		}
	}
	if worst == nil {
		return verdict{}, false
	}
	return *worst, true
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

// linkWriteVerdict decides a link that c makes while the line runs other
// commands, which may write through it: what a later command of the line
// writes by the link's name lands where the link leads, and the file
// system does not show the link when the line is decided. Each target
// (linkTargets: a symlink's read from where the link is made, a hard
// link's from the command's directory), there or not, is decided as a write, and what lies
// beneath a directory target as walked for treeWriteVerdict; a target
// known only when the line runs needs approval. (The bridge's own files
// are kept from such links by linkReaches.)
func (e *Engine) linkWriteVerdict(in *reqInfo, c *shellcmd.Command, others bool) (verdict, bool) {
	if !others {
		return verdict{}, false
	}
	w := e.newTreeWalk(in, c)
	for _, form := range c.Forms {
		if !makesLink(form) {
			continue
		}
		if linkUnknown(form) {
			return verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("running %q: it makes a link to a place known only when the line runs, and the line runs other commands that may write through it; run the link on its own first", w.source)}, true
		}
		who := filepath.Base(form[0].Text)
		symbolic := makesSymlink(form)
		for _, dir := range e.dirsOrRoots(in, c.Dir) {
			for _, t := range linkTargets(form, dir) {
				p := t.fromCwd
				if symbolic {
					p = t.fromLink
				}
				what := fmt.Sprintf("%s makes a link to %s, and the line's other commands may write through it (run the link on its own first)", who, p)
				if v, ok := w.refused(p, false, true, true); ok {
					v.reason = fmt.Sprintf("running %q: %s: %s", w.source, what, v.reason)
					w.keep(v)
					continue
				}
				if _, err := os.Stat(p); err != nil {
					// "d/../keys" where the line makes d first: as
					// the kernel will read it once d is a directory.
					p = filepath.Clean(p)
				}
				if fi, err := os.Stat(p); err != nil || !fi.IsDir() || !w.deep {
					continue
				}
				w.walk(p, false, func(q string) bool {
					v, ok := w.refused(q, false, false, true)
					if ok {
						v.reason = fmt.Sprintf("running %q: %s, which holds %s: %s", w.source, what, q, v.reason)
						w.keep(v)
					}
					return ok
				})
			}
		}
	}
	return w.result()
}
