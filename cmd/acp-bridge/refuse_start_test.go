package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBridgeRefusesToStart: a bridge configuration with a mistake (a bad
// flag value, a policy or a manifest with errors) stops the bridge before
// the agent starts, with status 2, nothing on stdout and every problem on
// stderr, located where it is in a file.
func TestBridgeRefusesToStart(t *testing.T) {
	policy := writePolicy(t, t.TempDir(), "  deny: [Bash(]\n")
	manifest := writeManifest(t, "bad-bridge", "    tier: premium\n    governance: ./GOVERNANCE.md\n    capabilities: {client: {terminal: maybe}}\n")
	tests := []struct {
		name string
		args []string
		want []string // each must appear on stderr
	}{
		{"bad compress mode", []string{"--compress", "maybe", "--cache-dir", t.TempDir()}, []string{`--compress "maybe": want on or off`}},
		{"bad offload threshold", []string{"--compress", "on", "--offload-tokens", "0", "--cache-dir", t.TempDir()}, []string{"must be positive"}},
		{"broken policy", []string{"--policy", policy, "--adapter", "none"}, []string{policy + `:8:10: rule "Bash(": missing closing parenthesis`}},
		{"invalid manifest", []string{"--manifest", manifest}, []string{
			manifest + `:11:11: metadata.aip44.tier: must be one of basic, governance-aware, sandboxed (got "premium")`,
			manifest + `:12:17: metadata.aip44.governance: referenced file ` + filepath.Join(filepath.Dir(manifest), "GOVERNANCE.md") + ` does not exist`,
			manifest + `:13:39: metadata.aip44.capabilities.client.terminal: must be true or false, not a string`,
			"invalid (3 problems, listed above); not starting",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRefusedToStart(t, tt.args, tt.want...)
		})
	}
}

// checkRefusedToStart runs the bridge with args and an agent that marks
// its start, and checks that the bridge stopped before the agent started:
// status 2, nothing on stdout, and each of want on stderr.
func checkRefusedToStart(t *testing.T, args []string, want ...string) {
	t.Helper()
	started := filepath.Join(t.TempDir(), "started")
	stdout, stderr, code := runCmd(t, "", append(args, "--", "sh", "-c", `touch "$1"`, "sh", started)...)
	if code != 2 {
		t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if _, err := os.Stat(started); err == nil {
		t.Error("the agent was started")
	}
	if stdout != "" {
		t.Errorf("the IDE received %q", stdout)
	}
}

// TestBridgeSubcommand: "acp-bridge bridge [flags] -- AGENT" is the bridge, as
// "acp-bridge [flags] -- AGENT" is (README's command table names both): the
// agent starts and what it writes reaches the IDE unchanged.
func TestBridgeSubcommand(t *testing.T) {
	const note = `{"jsonrpc":"2.0","method":"x/ping"}`
	for _, prefix := range [][]string{{"bridge"}, nil} {
		t.Run(strings.Join(append([]string{"acp-bridge"}, prefix...), " "), func(t *testing.T) {
			started := filepath.Join(t.TempDir(), "started")
			// The agent stays until its input closes, as an agent does:
			// one that exits on its own while the IDE's input ends races
			// the bridge's "client closed its input" against "agent
			// exited", and the second ends with status 1.
			args := append(prefix, "--log-level", "error", "--", "sh", "-c", `touch "$1"; echo '`+note+`'; cat >/dev/null`, "sh", started)
			stdout, stderr, code := runCmd(t, "", args...)
			if code != 0 {
				t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr)
			}
			if _, err := os.Stat(started); err != nil {
				t.Errorf("the agent was not started: %v", err)
			}
			if stdout != note+"\n" {
				t.Errorf("the IDE received %q, want %q", stdout, note+"\n")
			}
		})
	}
}
