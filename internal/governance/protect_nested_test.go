package governance

import (
	"testing"
)

// TestProtectsConfigAtAnyDepth checks that the files tools run commands
// from are protected wherever below a workspace root they sit, and that a
// git directory is protected whole: git runs core.fsmonitor and hooks from
// the configuration of whatever repository a `.git` names, so a `.git`
// file ("gitdir: evil") where none exists, a `commondir` in the
// repository's `.git`, a submodule's configuration or a repository nested
// in a subdirectory (which Zed and VS Code find and run git in) each make
// the IDE's git run the agent's command. Zed reads `.zed/settings.json`
// (whose formatters and language servers are commands) in any folder.
func TestProtectsConfigAtAnyDepth(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tests := []protectedCase{
		{"a .git file naming another repository", Request{Action: ActionFSWrite, Paths: []string{root + "/.git"}}, Deny, "git"},
		{"the repository's commondir", Request{Action: ActionFSWrite, Paths: []string{root + "/.git/commondir"}}, Deny, "git"},
		{"a submodule's configuration", Request{Action: ActionFSWrite, Paths: []string{root + "/.git/modules/m/config"}}, Deny, "git"},
		{"a worktree's configuration by an edit tool", Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{root + "/.git/worktrees/w/config.worktree"}}, Deny, "git"},
		{"a git object", Request{Action: ActionFSWrite, Paths: []string{root + "/.git/description"}}, Deny, "git"},
		{"a nested repository's configuration", Request{Action: ActionFSWrite, Paths: []string{root + "/src/lib/.git/config"}}, Deny, "git"},
		{"a nested .git file", Request{Action: ActionFSWrite, Paths: []string{root + "/src/.git"}}, Deny, "git"},
		{"a nested repository in other case", Request{Action: ActionFSWrite, Paths: []string{root + "/src/.GIT/config"}}, Deny, "git"},
		{"a nested git hook", Request{Action: ActionToolCall, Tool: "Edit", Kind: "edit", Paths: []string{root + "/src/.git/hooks/post-checkout"}}, Deny, "git"},
		{"a .git file by a redirect", Request{Action: ActionTerminalCreate, Command: "echo 'gitdir: evil' > .git"}, Deny, "git"},
		{"a nested .git file by a redirect", Request{Action: ActionTerminalCreate, Command: "echo 'gitdir: ../evil' > src/.git"}, Deny, "git"},
		{"a commondir by tee", Request{Action: ActionTerminalCreate, Command: "echo ../../evil | tee .git/commondir"}, Deny, "git"},
		{"Zed's folder settings", Request{Action: ActionFSWrite, Paths: []string{root + "/src/.zed/settings.json"}}, Deny, "Zed's project settings"},
		{"Zed's folder tasks", Request{Action: ActionFSWrite, Paths: []string{root + "/src/.zed/tasks.json"}}, Deny, "Zed's tasks"},
		{"VS Code tasks in a folder", Request{Action: ActionFSWrite, Paths: []string{root + "/src/a/.vscode/tasks.json"}}, Deny, "VS Code's tasks"},
		{"a nested .envrc", Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{root + "/src/.envrc"}}, Deny, "direnv"},
		{"Claude's settings in a folder", Request{Action: ActionFSWrite, Paths: []string{root + "/src/.claude/settings.json"}}, Deny, "Claude Code's project settings"},
		{"reading a nested repository's configuration", Request{Action: ActionFSRead, Paths: []string{root + "/src/lib/.git/config"}}, Allow, ""},
		{"reading the .git file", Request{Action: ActionFSRead, Paths: []string{root + "/.git"}}, Allow, ""},
		{".gitignore", Request{Action: ActionFSWrite, Paths: []string{root + "/src/.gitignore"}}, Allow, ""},
		{"a directory named git", Request{Action: ActionFSWrite, Paths: []string{root + "/src/git/config"}}, Allow, ""},
		{"a name ending in .git", Request{Action: ActionFSWrite, Paths: []string{root + "/src/repo.git/config"}}, Allow, ""},
		{".github", Request{Action: ActionFSWrite, Paths: []string{root + "/.github/workflows/ci.yml"}}, Allow, ""},
		{"a settings.json elsewhere", Request{Action: ActionFSWrite, Paths: []string{root + "/src/zed/settings.json"}}, Allow, ""},
		{"a command on .gitignore", Request{Action: ActionTerminalCreate, Command: "echo '*.o' >> .gitignore"}, Allow, ""},
		{"a clone URL ending in .git", Request{Action: ActionTerminalCreate, Command: "echo https://example.com/r.git/ > src/notes.txt"}, Allow, ""},
	}
	checkProtected(t, e, root, tests)
}
