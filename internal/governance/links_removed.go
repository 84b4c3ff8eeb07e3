package governance

import (
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A link made into a directory that exists goes beneath it, unless a line
// removes the directory first: terminals run side by side, so a line
// decided before or after may. The names decided lines may remove or move
// away are kept (madeLinks.noteRemoved), and a link kept at a directory's
// name counts once it is among them (madeLink.ifRemoved).

// nameFreers are the programs whose operands a line may remove or move
// away, leaving their names free for a link made after them (mv's
// destination aside).
var nameFreers = map[string]bool{"rm": true, "rmdir": true, "unlink": true, "mv": true}

// removedBy returns the names, in every form (forms), the command c may
// remove or move away, in each directory it may run in.
func (e *Engine) removedBy(in *reqInfo, c *shellcmd.Command, forms func(string) []string) []string {
	var out []string
	for _, form := range c.Forms {
		if len(form) < 2 || form[0].Kind != shellcmd.Static || !nameFreers[filepath.Base(form[0].Text)] {
			continue
		}
		name := filepath.Base(form[0].Text)
		ops, dest := operands(name, form[1:])
		for _, dir := range e.dirsOrRoots(in, c.Dir) {
			for i, op := range ops {
				if name == "mv" && op == dest && i == len(ops)-1 {
					continue
				}
				out = append(out, forms(filepath.Clean(joinRaw(dir, op)))...)
			}
		}
	}
	return out
}

// noteRemoved keeps names as ones a decided line may remove or move away.
func (m *madeLinks) noteRemoved(names []string) {
	if len(names) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.removed == nil {
		m.removed = make(map[string]bool)
	}
	for _, n := range names {
		if len(m.removed) >= maxMadeLinks {
			m.allRemoved = true
			return
		}
		m.removed[n] = true
	}
}

// mayRemove reports whether a decided line may remove or move away the
// directory d.
func (m *madeLinks) mayRemove(d string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.allRemoved || m.removed[d]
}
