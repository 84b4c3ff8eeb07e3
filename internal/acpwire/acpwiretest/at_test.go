package acpwiretest

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAt: a path through objects finds the member; one through anything
// else, or naming a member that is not there, finds nil.
func TestAt(t *testing.T) {
	var msg any
	doc := `{"params":{"update":{"sessionUpdate":"tool_call","locations":[{"path":"/a"}],"rawInput":null,"n":1}}}`
	if err := json.Unmarshal([]byte(doc), &msg); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		path []string
		want any
	}{
		{"no path", nil, msg},
		{"a string member", []string{"params", "update", "sessionUpdate"}, "tool_call"},
		{"a number member", []string{"params", "update", "n"}, float64(1)},
		{"a null member", []string{"params", "update", "rawInput"}, nil},
		{"an array", []string{"params", "update", "locations"}, []any{map[string]any{"path": "/a"}}},
		{"a missing member", []string{"params", "result"}, nil},
		{"through an array", []string{"params", "update", "locations", "path"}, nil},
		{"through a string", []string{"params", "update", "sessionUpdate", "x"}, nil},
		{"through null", []string{"params", "update", "rawInput", "command"}, nil},
		{"names are case-exact", []string{"Params"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, At(msg, tt.path...)); diff != "" {
				t.Errorf("At(%q) (-want +got):\n%s", tt.path, diff)
			}
		})
	}
	if got := At(nil, "a"); got != nil {
		t.Errorf("At(nil, a) = %v", got)
	}
}
