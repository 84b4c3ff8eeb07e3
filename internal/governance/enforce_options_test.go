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
// say it pass byte for byte, but an allow_always beside an allow_once is
// not shown: the policy asks about each call.
func TestPermissionOptionNames(t *testing.T) {
	tests := []struct {
		name, options string
		want          []string // the names the IDE shows; nil: the options as they came
	}{
		{"claude", `[{"optionId":"always","name":"Always Allow","kind":"allow_always"},{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]`,
			[]string{"Allow", "Reject"}},
		{"plan-mode", `[{"optionId":"a","name":"Yes, and auto-accept edits","kind":"allow_always"},{"optionId":"d","name":"Yes, and manually approve edits","kind":"allow_once"},{"optionId":"n","name":"No, keep planning","kind":"reject_once"}]`,
			[]string{"Yes, and manually approve edits", "No, keep planning"}},
		{"gemini", `[{"optionId":"proceed_always_server","name":"Always allow all tools from server","kind":"allow_always"},{"optionId":"proceed_once","name":"Allow","kind":"allow_once"},{"optionId":"cancel","name":"Reject","kind":"reject_once"}]`,
			[]string{"Allow", "Reject"}},
		{"only always", `[{"optionId":"always","name":"Always Allow","kind":"allow_always"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]`, nil},
		{"claude, named alike", `[{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]`, nil},
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

// TestPermissionAskedEachTime: a call the policy asks about is asked
// about each time. Its allow_always option is not shown; an answer naming
// it all the same is taken as the allow_once option, for this call only,
// and recorded so. A call that changes the session's mode (Claude's
// ExitPlanMode, whose allow_always is "Yes, and auto-accept edits") keeps
// its options and its answer.
func TestPermissionAskedEachTime(t *testing.T) {
	const always = `[{"optionId":"always","name":"Always Allow","kind":"allow_always"},{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]`
	for _, tt := range []struct {
		name, call, want string // want: the optionId the agent gets
		policy           bool
	}{
		{"a command", "{\"toolCallId\":\"c1\",\"title\":\"`python3 x.py`\",\"kind\":\"execute\",\"rawInput\":{\"command\":\"python3 x.py\"}}", "allow", true},
		{"leaving plan mode", `{"toolCallId":"p1","title":"Ready to code?","kind":"switch_mode","rawInput":{"plan":"x"}}`, "always", true},
		// With no policy the bridge only records: the person's answer stands.
		{"no policy", "{\"toolCallId\":\"c1\",\"title\":\"`python3 x.py`\",\"kind\":\"execute\",\"rawInput\":{\"command\":\"python3 x.py\"}}", "always", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessWith(t, EnforceOptions{}, tt.policy)
			h.openSession()
			line := strings.Replace(permissionLine(40, tt.call),
				`[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]`, always, 1)
			h.agent("%s", line)
			shown := strings.Contains(h.ClientGets(), `"always"`)
			if shown != (tt.want == "always") {
				t.Errorf("allow_always shown: %v", shown)
			}
			h.ide(`{"jsonrpc":"2.0","id":40,"result":{"outcome":{"outcome":"selected","optionId":"always"}}}`)
			m := h.nextAtAgent()
			if got := get(m, "result", "outcome", "optionId"); got != tt.want {
				t.Errorf("the agent got option %v, want %q", got, tt.want)
			}
			evs := h.rec.find("approval.recorded", "")
			if len(evs) != 1 || evs[0].ev.Metadata["approved"] != true {
				t.Fatalf("approval records %+v, want one approval", evs)
			}
			out := evs[0].ev.Output.(map[string]any)
			if as, _ := out["answeredAs"].(string); (as == "allow") != (tt.want == "allow") {
				t.Errorf("approval output %v: answeredAs should name allow exactly when the answer was taken as it", out)
			}
		})
	}
}
