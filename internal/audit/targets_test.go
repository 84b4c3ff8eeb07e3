package audit

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTargets: the path and command arguments come from the tool call's
// arguments, else the input; arguments that are not an object of strings
// are an error, with the members that could be read set.
func TestTargets(t *testing.T) {
	for _, tc := range []struct {
		name     string
		input    string
		toolCall bool // with a tool call whose arguments are args
		args     string
		want     Targets
		wantFail bool
	}{
		{name: "none"},
		{name: "input", input: `{"path":"/a","command":"ls"}`, want: Targets{Path: "/a", Command: "ls"}},
		{name: "arguments over input", input: `{"path":"/a"}`, toolCall: true, args: `{"file_path":"/b","absolute_path":"/c"}`,
			want: Targets{FilePath: "/b", AbsPath: "/c"}},
		{name: "empty arguments: input", input: `{"command":"make"}`, toolCall: true, want: Targets{Command: "make"}},
		{name: "not an object", toolCall: true, args: `["rm -rf /"]`, wantFail: true},
		{name: "a member not a string", toolCall: true, args: `{"path":7,"command":"rm -rf /"}`, want: Targets{Command: "rm -rf /"}, wantFail: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &Entry{}
			if tc.input != "" {
				e.Input = json.RawMessage(tc.input)
			}
			if tc.toolCall {
				e.ToolCall = &ToolCallRecord{Arguments: json.RawMessage(tc.args)}
			}
			got, err := e.Targets()
			if (err != nil) != tc.wantFail {
				t.Errorf("error %v, want failure %v", err, tc.wantFail)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("targets (-want +got):\n%s", d)
			}
		})
	}
}
