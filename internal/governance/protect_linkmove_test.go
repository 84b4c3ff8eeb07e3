package governance

import "testing"

// TestProtectedLinkMovedIntoPlace checks a link copied or moved as a link
// (mv, git mv, cp, rsync) to a name that is, holds or lies beneath a
// protected location: at its new place a relative target leads somewhere
// else ("t/x -> evil" leads to the missing t/evil; moved to .claude it
// leads to ./evil, which the agent writes), so it is refused as ln there
// is, whether the link is the operand or lies inside a directory whose
// contents are copied.
func TestProtectedLinkMovedIntoPlace(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tree{
		dirs:  []string{"evil", "t", "d", "plain", "real"},
		files: []string{"real/a.go"},
		links: map[string]string{"t/x": "evil", "d/.claude": "evil", "realdir": "real"},
	}.make(t, root)
	checkProtectedLines(t, e, root, protectedLineCases(t, "link_moved_lines.txt", nil))
}
