package adapter

import (
	"testing"
)

func TestDetectCommand(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		want string
	}{
		{"claude bin", []string{"claude-agent-acp"}, Claude},
		{"claude abs path", []string{"/work/e2e/node_modules/.bin/claude-agent-acp"}, Claude},
		{"npx zed package", []string{"npx", "-y", "@zed-industries/claude-agent-acp"}, Claude},
		{"npx acp package", []string{"npx", "@agentclientprotocol/claude-agent-acp@0.49.0"}, Claude},
		{"node script", []string{"node", "/usr/lib/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js"}, Claude},
		{"old name", []string{"claude-code-acp"}, Claude},
		{"gemini acp", []string{"gemini", "--acp"}, Gemini},
		{"gemini experimental", []string{"/usr/bin/gemini", "--model", "x", "--experimental-acp"}, Gemini},
		{"npx gemini", []string{"npx", "@google/gemini-cli@0.61.0", "--acp"}, Gemini},
		{"gemini without acp", []string{"gemini", "-p", "hi"}, ""},
		{"codex", []string{"npx", "@zed-industries/codex-acp"}, ""},
		{"script wrapper", []string{"./run-agent.sh"}, ""},
		{"empty", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectCommand(tt.argv); got != tt.want {
				t.Errorf("DetectCommand(%q) = %q, want %q", tt.argv, got, tt.want)
			}
		})
	}
}

func TestDetectAgentInfo(t *testing.T) {
	tests := []struct{ name, info, want string }{
		{"claude acp package", "@agentclientprotocol/claude-agent-acp", Claude},
		{"claude zed package", "@zed-industries/claude-agent-acp", Claude},
		{"gemini", "gemini-cli", Gemini},
		{"codex", "codex-acp", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectAgentInfo(tt.info); got != tt.want {
				t.Errorf("DetectAgentInfo(%q) = %q, want %q", tt.info, got, tt.want)
			}
		})
	}
}

func TestNewUnknown(t *testing.T) {
	if _, err := New("codex", Config{}); err == nil {
		t.Fatal("New(codex) succeeded; want an error naming the known adapters")
	}
}
