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
// approval. (The bridge's own files are kept from such links by
// linkReaches.)
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
		return
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
