package governance

import (
	"testing"
)

// TestGitDirsAnyName: the configuration and hooks of a git directory
// named otherwise than .git (a bare repository, a --separate-git-dir
// target) are refused to a write, a command and an edit tool, and a line
// that makes such a directory and runs other commands is refused whole;
// the rest of such a directory, and a directory that merely holds a
// config file, stay the policy's.
func TestGitDirsAnyName(t *testing.T) {
	root := tempTree(t, []string{"plain"}, []string{"plain/config", "x"})
	gitRun(t, root, "init", "-q", "--bare", "gd")
	e := rootPolicyEngine(t, root, "  default: allow\n")
	for _, tc := range []struct {
		req  Request
		want Value
	}{
		{Request{Action: ActionFSWrite, Paths: []string{root + "/gd/config"}}, Deny},
		{Request{Action: ActionFSWrite, Paths: []string{root + "/gd/hooks/pre-commit"}}, Deny},
		{Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{root + "/gd/hooks/post-checkout"}}, Deny},
		{Request{Action: ActionTerminalCreate, Command: "printf '[core]\\n\\tfsmonitor = touch x\\n' >> gd/config"}, Deny},
		{Request{Action: ActionTerminalCreate, Command: "cp x gd/hooks/pre-commit"}, Deny},
		{Request{Action: ActionTerminalCreate, Command: "git init -q --bare g2 && printf x >> g2/config"}, Deny},
		{Request{Action: ActionTerminalCreate, Command: "git clone -q --mirror gd g3 && cp x g3/hooks/post-update"}, Deny},
		{Request{Action: ActionFSWrite, Paths: []string{root + "/gd/description"}}, Allow},
		{Request{Action: ActionFSWrite, Paths: []string{root + "/plain/config"}}, Allow},
		{Request{Action: ActionTerminalCreate, Command: "git init -q --bare g4"}, Allow},
	} {
		tc.req.Cwd = root
		if d := e.Decide(tc.req); d.Value != tc.want {
			t.Errorf("%+v: %v (%s); want %v", tc.req, d.Value, d.Reason, tc.want)
		}
	}
}
