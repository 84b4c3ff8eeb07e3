package governance

import "testing"

// TestGitConfigFilesGivenOnTheLine decides git lines whose -c names a
// hooks directory or a configuration file to include. Before, the line
// was asked about ("takes configuration or commands from where the line
// does not show") and the person's approval ran the agent's pre-commit
// hook or the alias of its included file, which empty the policy.
func TestGitConfigFilesGivenOnTheLine(t *testing.T) {
	root := tempTree(t, []string{"h", "clean", "sub/.git"}, []string{"clean/pre-commit", "ok.cfg"})
	writeFiles(t, root, map[string]string{"h/pre-commit": "#!/bin/sh\n: > GOVERNANCE.md\n"}, 0o755)
	writeFiles(t, root, map[string]string{"team.cfg": "[alias]\n\tst = !: > GOVERNANCE.md\n"}, 0o644)
	e := rootPolicyEngine(t, root, "  allow: [Bash(git:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"git -c core.hooksPath=h commit -m x", Deny},
		{"git -c core.hookspath=./h/ commit -m x", Deny},
		{"git -C . -c core.hooksPath=h commit -m x", Deny},
		{"git -c core.hooksPath=$PWD/h commit -m x", Deny},
		{`git -c "core.hooksPath=${PWD}/h" commit -m x`, Deny},
		{"git -c core.hooksPath=" + root + "/h commit -m x", Deny},
		{"git -c include.path=" + root + "/team.cfg st", Deny},
		{"git -c include.path=$PWD/team.cfg st", Deny},
		{`git -c "includeIf.onbranch:main.path=$PWD/team.cfg" st`, Deny},
		{"git -c core.hooksPath=clean commit -m x", RequireApproval},
		{"git -c include.path=$PWD/ok.cfg status", RequireApproval},
		{"git -c user.name=a commit -m x", Allow},
	})
	// Run in a directory below the top of the work tree, a relative
	// hooks directory is the top's.
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: "git -c core.hooksPath=h commit -m x", Cwd: root + "/clean", Paths: []string{root}})
	if d.Value != Deny {
		t.Errorf("git -c core.hooksPath=h commit in clean/: %v (%s); want deny", d.Value, d.Reason)
	}
}
