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
	checkProtectedLines(t, e, root, []protectedLine{
		{"ln -s evil .claude", Deny, "Claude Code's project settings"},
		{"ln -sT evil .claude", Deny, "Claude Code's project settings"},
		{"ln -s " + root + "/evil .zed", Deny, "Zed's project directory"},
		{"ln -s evil .gemini", Deny, "Gemini CLI's project directory"},
		{"symlink evil .vscode", Deny, "VS Code's workspace settings"},
		{"cp -s -r evil .claude", Deny, "Claude Code's project settings"},
		{"ln -s evil x && mv x .claude", Deny, "Claude Code's project settings"},
		{"mv missing .claude", Deny, "Claude Code's project settings"},
		{"mv lnk .claude", Deny, "Claude Code's project settings"},
		{"mkdir -p y/.claude && cp -r y/. .", Deny, "protected from the agent"},
		{"mkdir emptydir/.claude; ln -s ../../evil/settings.json emptydir/.claude/settings.json; cp -r emptydir/. .", Deny, "protected from the agent"},
		{"install -D -t .claude evil/settings.json", Deny, "Claude Code's project settings"},
		{"rsync -a --mkpath evil/settings.json .claude/", Deny, "Claude Code's project settings"},
		{"mount --bind evil .claude", Deny, "Claude Code's project settings"},
		{"ln -s ../evil plain/.zed", Deny, "Zed's project settings"},
		{"mv evil plain/.zed", Deny, "Zed's project settings"},
		{"cp -r evil plain/.zed", Deny, "Zed's project settings"},
		{"install -D -t plain/.claude evil/settings.json", Deny, "Claude Code's project settings"},
		{"ln -s evil plain/zed", Allow, ""},
		{"cp -r evil plain/x", Allow, ""},
		{"ln -s evil x", Allow, ""},
		{"install -D -t plain evil/settings.json", Allow, ""},
		{"ln -s plain/a.go b.go", Allow, ""},
		{"mv plain .claude2", Allow, ""},
		{"mkdir -p out && cp -r plain out", Allow, ""},
		{"cp -r emptydir/. plain", Allow, ""},
		{"mv emptydir .claude", Allow, ""}, // looked at: nothing in it becomes settings.json
	})
}
