package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEnforceJudgesWrittenImports: a permission request for a call whose
// input writes text importing a file the policy refuses reading ("@../.env"
// in a CLAUDE.md) is refused, though the policy allows the edit; the same
// call importing a readable file is allowed by the bridge itself.
func TestEnforceJudgesWrittenImports(t *testing.T) {
	for _, c := range []struct {
		name, content, want string
	}{
		{"env import", "See @../.env\n", "no"},
		{"readable import", "See @a.go\n", "yes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			file := filepath.Join(h.root, "src", "CLAUDE.md")
			h.agent(`{"jsonrpc":"2.0","id":40,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"w1","title":"Write src/CLAUDE.md","kind":"edit","status":"pending","rawInput":{"file_path":%q,"content":%q}},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`, file, c.content)
			m := h.nextAtAgent()
			if got := get(m, "result", "outcome", "optionId"); got != c.want {
				t.Fatalf("agent got %v, want the bridge's answer %s", m, c.want)
			}
			if _, err := os.Stat(file); err == nil {
				t.Fatalf("%s exists", file)
			}
		})
	}
}
