package governance

import "testing"

// TestGitConfigFilesGivenOnTheLine decides git lines whose -c names a
// hooks directory or a configuration file to include. Before, the line
// was asked about ("takes configuration or commands from where the line
// does not show") and the person's approval ran the agent's pre-commit
// hook or the alias of its included file, which empty the policy.
func TestGitConfigFilesGivenOnTheLine(t *testing.T) {
	e, root := checkTreeLines(t, "git_config_files_tree.txt", "  allow: [Bash(git:*)]\n", "git_config_files_lines.txt")
	// Run in a directory below the top of the work tree, a relative
	// hooks directory is the top's.
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: "git -c core.hooksPath=h commit -m x", Cwd: root + "/clean", Paths: []string{root}})
	if d.Value != Deny {
		t.Errorf("git -c core.hooksPath=h commit in clean/: %v (%s); want deny", d.Value, d.Reason)
	}
}
