package governance

import (
	"slices"
	"strings"
)

// A ".." after the name of a kept link steps up from where the link leads,
// not from the directory holding the name: once "ln -s . sub/kk" has run,
// sub/kk/../GOVERNANCE.md is the policy at the top. A path's forms are
// clean (".." taken lexically, or after the links the file system shows
// now, where a missing kk is a new, plain directory), so the name the ".."
// steps up out of is gone from every form by the time madeLinks.extend
// looks for kept links among their directories. extendDotDot looks for
// them in the path as written instead. A command's cwd holding such a ".."
// (a terminal started in sub/kk/..) puts the process where the link
// leads once it is made, while kernelCwd finds the directory the file
// system shows now: the command is decided in both (keptLinkCwds).

// maxDotDotDepth bounds how many kept links, each followed by a "..",
// extendDotDot follows through one path: the kernel follows no more links
// in one lookup.
const maxDotDotDepth = maxLinks

// extendDotDot appends to forms the forms the path p, as written, takes
// through each kept link at a name that a later ".." of p steps up out of:
// the link's target with the rest of p after the name, ".." included,
// resolved as the file system resolves it (madeLink.through). Each
// directory p names before such a ".." is looked up in all its forms
// (spellingForms), so a kept name reached through a link that is in place
// counts too; a target's own path is looked through again, to depth
// levels. A path those forms cannot be judged by is refused.
func (m *madeLinks) extendDotDot(p string, forms, roots []string, depth int) ([]string, *pathRefusal) {
	if m == nil || m.n.Load() == 0 || !climbsBack(p) {
		return forms, nil
	}
	if depth > maxDotDotDepth {
		return forms, refuse("unresolvable-path", "the path steps up out of more links that commands already let run make than the kernel follows (%d)", maxLinks)
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '/' || i == 0 {
			continue
		}
		prefix, rest := p[:i], p[i+1:]
		if !climbsBack(rest) {
			break // no ".." is left to step up out of a name
		}
		names, r := spellingForms(prefix, roots...)
		if r != nil {
			return forms, r
		}
		for _, name := range names {
			for _, l := range m.at(name) {
				if forms, r = l.through(forms, rest, roots); r != nil {
					return forms, r
				}
				if l.target == "" {
					continue // through refused it
				}
				alt := strings.TrimSuffix(l.target, "/") + "/" + rest
				if forms, r = m.extendDotDot(alt, forms, roots, depth+1); r != nil {
					return forms, r
				}
			}
		}
	}
	return forms, nil
}

// keptLinkCwds returns the directories other than the one kernelCwd finds
// now that a command request's cwd, holding a "..", leads to through kept
// links (extendDotDot), for the command to be decided in each. A cwd
// those links leave unjudgeable has none: it is refused where it is
// judged as a path.
func (e *Engine) keptLinkCwds(req Request) []string {
	if req.Action != ActionTerminalCreate && req.Command == "" || !strings.HasPrefix(req.Cwd, "/") || !hasDotDot(req.Cwd) {
		return nil
	}
	forms, r := e.made.extendDotDot(req.Cwd, nil, nil, 0)
	if r != nil {
		return nil
	}
	now := kernelCwd(req.Cwd)
	var out []string
	for _, f := range forms {
		if f != now && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
