package e2e

import "testing"

// TestGeminiShellDirPathWithoutAdminPolicy: a Gemini CLI the bridge gives
// no policy file (started through a wrapper and known only by its
// agentInfo; --adapter none here) asks about a run_shell_command with a
// dir_path, and its permission request shows the directory only in its
// text ("[in secrets] (Touch)"). The bridge must judge the command where
// it runs: touch pwn.txt there writes secrets/pwn.txt, which the policy
// denies editing. The control, without a dir_path, runs.
func TestGeminiShellDirPathWithoutAdminPolicy(t *testing.T) {
	testGeminiShellDirPath(t, "gemini-dir-path-text-", []string{"--adapter", "none"})
}
