package governance

import "testing"

func TestOperatorID(t *testing.T) {
	for _, tc := range []struct {
		name  string
		agent []string
		want  string
	}{
		{"binary", []string{"/usr/local/bin/claude-code-acp"}, "agent:claude-code-acp"},
		{"npx package", []string{"npx", "-y", "@zed-industries/claude-code-acp@1.2.3"}, "agent:claude-code-acp"},
		{"pnpm dlx", []string{"pnpm", "dlx", "gemini"}, "agent:gemini"},
		{"none", nil, "agent:unknown"},
	} {
		if got := OperatorID(nil, tc.agent); got != tc.want {
			t.Errorf("%s: OperatorID(nil, %q) = %q, want %q", tc.name, tc.agent, got, tc.want)
		}
	}
}
