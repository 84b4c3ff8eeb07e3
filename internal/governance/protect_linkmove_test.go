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
	checkProtectedLines(t, e, root, []protectedLine{
		{"mv t/x .claude", Deny, "Claude Code's project settings"},
		{"mv t/x .zed", Deny, "Zed's project directory"},
		{"cp -P t/x .gemini", Deny, "Gemini CLI's project directory"},
		{"cp -a t/x .vscode", Deny, "VS Code's workspace settings"},
		{"cp -d t/x plain/.claude", Deny, "Claude Code's project settings"},
		{"rsync -a t/x .claude", Deny, "Claude Code's project settings"},
		{"mv -t . d/.claude", Deny, "Claude Code's project settings"},
		{"mv d/.claude .", Deny, "Claude Code's project settings"},
		{"cp -a d/. .", Deny, "Claude Code's project settings"},
		{"rsync -a d/ .", Deny, "Claude Code's project settings"},
		{"mv d plain/", Deny, "Claude Code's project settings"},
		{"git mv t/x .claude", Deny, "Claude Code's project settings"},
		{"git -C t mv x ../.zed", Deny, "Zed's project settings"},
		{"git mv t/x y", Allow, ""},
		{"mv t/x y", Allow, ""},
		{"cp -a t/x plain/", Allow, ""},
		{"cp -a t/. plain", Allow, ""},
		{"cp -a realdir/. plain", Allow, ""},
		{"cp -a realdir/. .", Allow, ""},
	})
}
