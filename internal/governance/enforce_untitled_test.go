package governance

import (
	"strings"
	"testing"
)

// TestPermissionCarriesTheCallsTitle: a permission request that carries
// no title of its own leaves the IDE showing the title its earlier updates
// left on the card, and an IDE drops an update its types refuse where the
// bridge reads it (Zed one whose location has no path). So the request the
// IDE gets carries the title the bridge judged the call under; one that
// carries its own title that shows the command passes byte for byte.
func TestPermissionCarriesTheCallsTitle(t *testing.T) {
	const call = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Look at the docs","kind":"think"}}}`
	const retitle = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":"python3 x.py","kind":"execute","locations":[{}]}}}`
	tests := []struct {
		name, toolCall string
		// from and to: the IDE's copy has from replaced by to; "" for
		// the request as it came.
		from, to string
	}{
		{"no title", `{"toolCallId":"c1","rawInput":{"command":"python3 x.py"}}`,
			`"rawInput":{"command":"python3 x.py"}`, `"rawInput":{"command":"python3 x.py"},"title":"python3 x.py"`},
		{"title null", `{"toolCallId":"c1","title":null,"rawInput":{"command":"python3 x.py"}}`,
			`"title":null`, `"title":"python3 x.py"`},
		{"its own title", `{"toolCallId":"c1","title":"python3 x.py","rawInput":{"command":"python3 x.py"}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			for _, l := range []string{call, retitle} {
				h.agent("%s", l)
				if got := h.ClientGets(); got != l {
					t.Fatalf("the IDE got %s, want the update as sent", got)
				}
			}
			line := permissionLine(40, tt.toolCall)
			h.agent("%s", line)
			want := line
			if tt.from != "" {
				want = strings.Replace(line, tt.from, tt.to, 1)
			}
			if got := h.ClientGets(); got != want {
				t.Errorf("the IDE got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
