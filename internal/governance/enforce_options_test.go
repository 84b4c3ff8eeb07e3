package governance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// TestPermissionOptionNames: the buttons of a forwarded permission request
// say what pressing them does. An option whose name does not say its kind
// (an allow_once named "Reject") is shown with its kind first; names that
// say it (Claude's, Gemini's, Claude's plan-mode answers) pass byte for byte.
func TestPermissionOptionNames(t *testing.T) {
	tests := []struct {
		name, options string
		want          []string // the names the IDE shows; nil: the options as they came
	}{
		{"claude", `[{"optionId":"always","name":"Always Allow","kind":"allow_always"},{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]`, nil},
		{"plan-mode", `[{"optionId":"a","name":"Yes, and auto-accept edits","kind":"allow_always"},{"optionId":"d","name":"Yes, and manually approve edits","kind":"allow_once"},{"optionId":"n","name":"No, keep planning","kind":"reject_once"}]`, nil},
		{"allow-named-reject", `[{"optionId":"a","name":"Reject","kind":"allow_once"},{"optionId":"r","name":"Reject","kind":"reject_once"}]`,
			[]string{"Allow once: Reject", "Reject"}},
		{"reject-named-allow", `[{"optionId":"a","name":"Allow","kind":"allow_once"},{"optionId":"r","name":"Allow","kind":"reject_always"}]`,
			[]string{"Allow", "Reject always: Allow"}},
		{"both-words", `[{"optionId":"a","name":"Allow? No","kind":"allow_once"},{"optionId":"r","name":"Reject","kind":"reject_once"}]`,
			[]string{"Allow once: Allow? No", "Reject"}},
		{"other-script", `[{"optionId":"a","name":"Rеject","kind":"allow_once"},{"optionId":"r","name":"Reject","kind":"reject_once"}]`,
			[]string{"Allow once: Rеject", "Reject"}},
		{"format-character", `[{"optionId":"a","name":"Allow\u202e","kind":"allow_once"},{"optionId":"r","name":"Reject","kind":"reject_once"}]`,
			[]string{"Allow once: Allow\u202e", "Reject"}},
		{"no-words", `[{"optionId":"a","name":"OK!","kind":"allow_once"},{"optionId":"r","name":"✗","kind":"reject_once"}]`,
			[]string{"OK!", "Reject once: ✗"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			line := strings.Replace(permissionLine(40, "{\"toolCallId\":\"c1\",\"title\":\"`python3 x.py`\",\"kind\":\"execute\",\"rawInput\":{\"command\":\"python3 x.py\"}}"),
				`[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]`, tt.options, 1)
			h.agent("%s", line)
			got := h.ClientGets()
			if tt.want == nil {
				if got != line {
					t.Errorf("the IDE got\n%s\nwant it as it came\n%s", got, line)
				}
				return
			}
			m := h.decode(got, "IDE")
			opts, _ := get(m, "params", "options").([]any)
			var names []string
			for _, o := range opts {
				names = append(names, fmt.Sprint(o.(map[string]any)["name"]))
			}
			if fmt.Sprint(names) != fmt.Sprint(tt.want) {
				t.Errorf("the IDE shows the options %q, want %q", names, tt.want)
			}
			if strings.Replace(got, `"options":`+string(mustGet(t, got, "params", "options")), `"options":`+tt.options, 1) != line {
				t.Errorf("more than the options changed:\n%s\n%s", got, line)
			}
		})
	}
}

func mustGet(t *testing.T, line string, path ...string) []byte {
	t.Helper()
	v, ok := rawjson.Get([]byte(line), path...)
	if !ok {
		t.Fatalf("%s has no %v", line, path)
	}
	return v
}
