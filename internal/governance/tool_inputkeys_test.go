package governance

import (
	"slices"
	"testing"
)

// TestToolInputMemberSpellings: a member whose name a case-insensitive or
// alias-taking decoder reads as one the bridge reads (FiLe_PaTh,
// Move_Path, Changes, movePath, a Kelvin sign for k) names the same paths
// and command as the exact spelling; a name apart from them stays
// unread as one.
func TestToolInputMemberSpellings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  string
		input string
		paths []string
		cmd   string
	}{
		{"file_path in mixed case", "edit", `{"FiLe_PaTh":"/o/v.txt","content":"x"}`, []string{"/o/v.txt"}, ""},
		{"a path word in mixed case", "edit", `{"tArGeT_FiLe":"/o/v.txt"}`, []string{"/o/v.txt"}, ""},
		{"filePath run together", "edit", `{"FILEPATH":"/o/v.txt"}`, []string{"/o/v.txt"}, ""},
		{"a patch's move_path", "edit", `{"changes":{"/w/a.txt":{"type":"update","Move_Path":"/o/v.txt"}}}`, []string{"/w/a.txt", "/o/v.txt"}, ""},
		{"movePath in camel case", "edit", `{"changes":{"/w/a.txt":{"update":{"movePath":"/o/v.txt"}}}}`, []string{"/w/a.txt", "/o/v.txt"}, ""},
		{"Changes", "edit", `{"Changes":{"/o/v.txt":{"type":"add","content":"x"}}}`, []string{"/o/v.txt"}, ""},
		{"command in upper case", "execute", `{"COMMAND":"rm -rf x"}`, nil, "rm -rf x"},
		{"a long s", "execute", `{"\u017fhell_command":"rm x"}`, nil, "rm x"},
		{"cmd with a dash", "execute", `{"C-M-D":"rm x"}`, nil, "rm x"},
		{"content stays content", "edit", `{"file_path":"/w/a.txt","Content":"/o/v.txt"}`, []string{"/w/a.txt"}, ""},
	} {
		req := ToolCallRequest(ToolCall{Kind: tc.kind, Title: "t", RawInput: []byte(tc.input)}, "/w")
		for _, p := range tc.paths {
			if !slices.Contains(req.Paths, p) {
				t.Errorf("%s: paths %q, want %s among them", tc.name, req.Paths, p)
			}
		}
		if tc.paths == nil && tc.kind == "edit" && len(req.Paths) > 0 {
			t.Errorf("%s: paths %q, want none", tc.name, req.Paths)
		}
		if slices.Contains(req.Paths, "/o/v.txt") && !slices.Contains(tc.paths, "/o/v.txt") {
			t.Errorf("%s: paths %q hold /o/v.txt", tc.name, req.Paths)
		}
		if req.Command != tc.cmd {
			t.Errorf("%s: command %q, want %q", tc.name, req.Command, tc.cmd)
		}
	}
}
