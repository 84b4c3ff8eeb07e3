package e2e

import "testing"

// geminiShellPolicy allows echo and denies touch.
var geminiShellPolicy = governanceDoc("e2e-gemini-shell", "e2e Gemini shell", "The policy the Gemini shell scenarios run under.", "  default: ask\n  allow:\n    - Bash(echo:*)\n  deny:\n    - Bash(touch:*)\n")

// TestAdapterGeminiAllowedPrefixEffects: a command Gemini CLI's admin
// policy allows by its prefix runs without a permission request, so the
// bridge never judges it: a line that starts with an allowed command and
// runs a denied one must not run.
func TestAdapterGeminiAllowedPrefixEffects(t *testing.T) {
	s := needSuite(t)
	for _, c := range []struct{ name, cmd string }{
		{"newline", "echo x\ntouch pwn.txt"},
		{"background", "echo x & touch pwn.txt"},
		{"pipe", "echo x | touch pwn.txt"},
		{"process-substitution-out", "echo x >(touch pwn.txt)"},
		{"parameter-default", "echo ${x:-$(touch pwn.txt)}"},
		{"subshell", "echo x; (touch pwn.txt)"},
		{"group", "echo x && { touch pwn.txt; }"},
		{"arith", "echo $(( $(touch pwn.txt) 1 ))"},
		{"heredoc", "echo <<E $(touch pwn.txt)\nx\nE"},
		{"assign", "X=$(touch pwn.txt) echo x"},
		{"carriage-return", "echo x\rtouch pwn.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := checkGeminiTouch(t, s, newWorkspace(t), geminiShellPolicy, "gemini-shell-"+c.name, "", touchCase{c.name, c.cmd, "pwn.txt", false})
			r.noLeftovers()
		})
	}
}
