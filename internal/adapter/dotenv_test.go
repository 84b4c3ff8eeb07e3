package adapter

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// TestDotEnvOfGeminiForks: Qwen Code and iFlow CLI, Gemini CLI forks with
// no adapter of their own, load the workspace's .env into their
// environment as Gemini CLI does, so the bridge protects it for them; an
// agent that does not, or one of them not run for ACP, leaves it to the
// policy.
func TestDotEnvOfGeminiForks(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		want bool
	}{
		{[]string{"qwen", "--acp"}, true},
		{[]string{"/usr/local/bin/qwen", "--experimental-acp"}, true},
		{[]string{"npx", "-y", "@qwen-code/qwen-code@latest", "--acp"}, true},
		{[]string{"iflow", "--experimental-acp"}, true},
		{[]string{"qwen"}, false},
		{[]string{"codex-acp"}, false},
	} {
		var got []governance.ProtectedPath
		cfg := Config{Protect: func(ps ...governance.ProtectedPath) { got = append(got, ps...) }}
		sel, err := Open(Options{Mode: "auto", Agent: &acpwire.AgentCommand{Path: tt.argv[0], Args: tt.argv[1:]}, Config: cfg})
		if err != nil {
			t.Fatalf("Open(%q): %v", tt.argv, err)
		}
		if sel != nil {
			sel.Close()
		}
		protected := false
		for _, p := range got {
			protected = protected || p.Path == ".env" && p.BelowRoots
		}
		if protected != tt.want {
			t.Errorf("Open(%q) protected %+v; want .env protected: %v", tt.argv, got, tt.want)
		}
	}
}
