package e2e

import "testing"

// The setup the scenarios of a governed real agent share.

// claudeScene is the start of a scenario with Claude Code: the suite (t is
// skipped when it is not enabled), Claude, and a new workspace.
func claudeScene(t *testing.T) (*suiteEnv, *agentSpec, *workspace) {
	t.Helper()
	return needSuite(t), &claudeAgent, newWorkspace(t)
}
