package governance

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// linkWriteVerdict decides a link that c makes while the line runs other
// commands, which may write through it: what a later command of the line
// writes by the link's name lands where the link leads, and the file
// system does not show the link when the line is decided. Each target
// (linkTargets: a symlink's read from where the link is made, a hard
// link's from the command's directory), there or not, is decided as a
// write, and what lies beneath a directory target as walked for
// treeWriteVerdict; a target known only when the line runs needs
// approval. rsync's --link-dest directories are such targets
// (rsyncLinkDest). (The bridge's own files are kept from such links by
// linkReaches.)
func (e *Engine) linkWriteVerdict(in *reqInfo, c *shellcmd.Command, others bool) (verdict, bool) {
	if !others {
		return verdict{}, false
	}
	w := e.newTreeWalk(in, c)
	for _, form := range c.Forms {
		for _, dir := range e.dirsOrRoots(in, c.Dir) {
			rl, ok := rsyncLinkDest(form, dir)
			if ok && rl.unknown {
				return verdict{value: RequireApproval, ref: "unreadable-command",
					ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
					reason: fmt.Sprintf("running %q: its --link-dest makes hard links where, or to files whose place, is known only when the line runs, and the line runs other commands that may write through them; run it on its own first", w.source)}, true
			}
			for _, d := range rl.dirs {
				w.linked("rsync --link-dest", d)
			}
		}
		if !makesLink(form) {
			w.copiedLinks(form, e.dirsOrRoots(in, c.Dir))
			continue
		}
		if linkUnknown(form) {
			return verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("running %q: it makes a link to a place known only when the line runs, and the line runs other commands that may write through it; run the link on its own first", w.source)}, true
		}
		who := filepath.Base(form[0].Text)
		symbolic := makesSymlink(form) && !lnRelative(form)
		for _, dir := range e.dirsOrRoots(in, c.Dir) {
			for _, t := range linkTargets(form, dir) {
				p := t.fromCwd
				if symbolic {
					p = t.fromLink
				}
				w.linked(who, p)
			}
		}
	}
	return w.result()
}

// linked decides the target p of a link a command (who) makes, and what
// lies beneath it when it is a directory.
func (w *treeWalk) linked(who, p string) {
	what := fmt.Sprintf("%s makes a link to %s, and the line's other commands may write through it (run the link on its own first)", who, p)
	if v, ok := w.refused(p, false, true, true); ok {
		v.reason = fmt.Sprintf("running %q: %s: %s", w.source, what, v.reason)
		w.keep(v)
		if v.value == Deny {
			return
		}
	}
	if _, err := os.Stat(p); err != nil {
		// "d/../keys" where the line makes d first: as the kernel
		// will read it once d is a directory.
		p = filepath.Clean(p)
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() || !w.deep {
		return
	}
	w.beneath(p, what, false, false, false, true, nil)
}

// copiedLinks decides, for a copier's or mover's form (cp -P, cp -a, mv,
// rsync -l, ...) run in one of dirs, where each symlink it puts in place
// leads from there, as a write: a source that is a symlink, and each
// symlink beneath a directory it copies or moves whole. The line's other
// commands may write through it. A relative target is read from where the
// copy puts the link and from where the link is now; a copy that follows
// the link (cp without -P) makes a file instead, which is decided the
// same, to err on the side of the rule.
func (w *treeWalk) copiedLinks(form []shellcmd.Word, dirs []string) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return
	}
	name := filepath.Base(form[0].Text)
	if !copiers[name] {
		return
	}
	ops, dest := operands(name, form[1:])
	for _, dir := range dirs {
		abs := func(p string) string { return w.e.operandPath(dir, p) }
		into := dest != "" && intoDir(form, abs(dest), false)
		for i, op := range ops {
			if dest == "" || op == dest && i == len(ops)-1 {
				continue
			}
			src := abs(op)
			if !isLink(src) {
				continue
			}
			made := abs(dest)
			if into {
				made += "/" + filepath.Base(filepath.Clean(src))
			}
			w.copiedLink(name, src, made)
		}
		for _, t := range w.e.copyTargets(name, form, dir) {
			if fi, err := os.Lstat(t.src); err != nil || !t.tree || !fi.IsDir() {
				continue
			}
			w.walk(t.src, false, false, nil, func(p, rel, _ string, ent os.DirEntry) bool {
				if ent.Type()&os.ModeSymlink != 0 {
					w.copiedLink(name, p, t.made+"/"+rel)
				}
				return false
			})
		}
	}
}

// copiedLink decides where the symlink at link leads once a copy puts it
// at made.
func (w *treeWalk) copiedLink(who, link, made string) {
	t, err := os.Readlink(link)
	if err != nil {
		return
	}
	if filepath.IsAbs(t) {
		w.linked(who, t)
		return
	}
	w.linked(who, filepath.Dir(made)+"/"+t)
	w.linked(who, filepath.Dir(link)+"/"+t)
}
