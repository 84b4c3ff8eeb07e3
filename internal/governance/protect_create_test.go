package governance

import "testing"

// TestProtectedCreatedByLinkOrMove checks the commands that would define a
// protected location not there yet without writing it: a link at a name
// holding it (.claude, where .claude/settings.json is protected, at the
// root or below it, where such configuration is protected too), and a
// copy or move into place of a name holding it whose source the decision
// cannot look at (missing, or made by the line's other commands).
func TestProtectedCreatedByLinkOrMove(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tree{files: []string{"evil/settings.json", "plain/a.go", "emptydir/.keep"}, links: map[string]string{"lnk": "evil"}}.make(t, root)
	checkProtectedLines(t, e, root, protectedLineCases(t, "created_by_link_lines.txt", map[string]string{"$ROOT": root}))
}
