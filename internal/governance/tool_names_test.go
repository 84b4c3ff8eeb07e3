package governance

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOtherToolsPaths checks that a tool's path field of a spelling the
// bridge has no list entry for (an MCP server's) is judged: its file is a
// path of the request, and a write of the bridge's own files through it
// is refused whatever rule allows the tool.
func TestOtherToolsPaths(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tests := []struct {
		name  string
		tc    ToolCall
		paths []string
		want  Value
	}{
		{"Serena's relative_path", ToolCall{Tool: "mcp__serena__create_text_file", Kind: "edit",
			RawInput: []byte(`{"relative_path":"` + root + `/GOVERNANCE.md","content":"x"}`)}, []string{root + "/GOVERNANCE.md"}, Deny},
		{"JetBrains' pathInProject", ToolCall{Tool: "mcp__jetbrains__create_new_file_with_text", Kind: "other",
			RawInput: []byte(`{"pathInProject":"` + root + `/audit/audit-log.jsonl","text":"{}"}`)}, []string{root + "/audit/audit-log.jsonl"}, Deny},
		{"target_file", ToolCall{Kind: "edit", Title: "Edit",
			RawInput: []byte(`{"target_file":"` + root + `/ACP.md","code_edit":"x"}`)}, []string{root + "/ACP.md"}, Deny},
		{"a list of source files", ToolCall{Kind: "delete",
			RawInput: []byte(`{"source_files":["` + root + `/src/a.go","` + root + `/GOVERNANCE.md"]}`)}, []string{root + "/src/a.go", root + "/GOVERNANCE.md"}, Deny},
		{"output_file_name", ToolCall{Kind: "edit",
			RawInput: []byte(`{"output_file_name":"` + root + `/GOVERNANCE.md","data":"x"}`)}, []string{root + "/GOVERNANCE.md"}, Deny},
		{"an ordinary file", ToolCall{Tool: "mcp__serena__create_text_file", Kind: "edit",
			RawInput: []byte(`{"relative_path":"` + root + `/src/b.go","content":"x"}`)}, []string{root + "/src/b.go"}, Allow},
		{"content and settings are no paths", ToolCall{Kind: "edit", Locations: []string{root + "/src/b.go"},
			RawInput: []byte(`{"file_text":"../../GOVERNANCE.md","profile":"x","new_string":"see GOVERNANCE.md","sort_dir":"asc"}`)}, []string{root + "/src/b.go"}, Allow},
		// Any other string may be a file the tool opens (mentioned.go):
		// not a path of the request, but decided where it restricts.
		{"a string naming the policy", ToolCall{Kind: "edit", Locations: []string{root + "/src/b.go"},
			RawInput: []byte(`{"file_text":"x","new_string":"GOVERNANCE.md"}`)}, []string{root + "/src/b.go"}, Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := ToolCallRequest(tt.tc, root)
			if diff := cmp.Diff(tt.paths, req.Paths); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
			if d := e.Decide(req); d.Value != tt.want {
				t.Errorf("Decide = %v (%s); want %s", d.Value, d.Reason, tt.want)
			}
		})
	}
}

func TestNamedPathKey(t *testing.T) {
	for _, k := range []string{"relative_path", "pathInProject", "target_file", "output_dir_path", "file_name", "fileName",
		"source_files", "Path", "input_paths", "folder", "working_directory", "outputFilePath", "file", "new_file"} {
		if !namedPathKey(k) {
			t.Errorf("namedPathKey(%q) = false, want true", k)
		}
	}
	for _, k := range []string{"content", "file_text", "profile", "new_string", "sort_dir", "xpath", "filter", "text", "command", "", "_"} {
		if namedPathKey(k) {
			t.Errorf("namedPathKey(%q) = true, want false", k)
		}
	}
}

// FuzzNamedPathKey checks namedPathKey's early answer against the words
// of the name: a name it turns down without splitting has no path word.
func FuzzNamedPathKey(f *testing.F) {
	for _, k := range []string{"relative_path", "pathInProject", "file_text", "PATH", "outputDirName", "Folder_ID"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, k string) {
		words := nameWords(k)
		want := false
		for i, w := range words {
			if pathWords[w] || i+1 < len(words) && w == "file" && words[i+1] == "name" {
				want = true
			}
		}
		if len(words) > 0 && lastPathWords[words[len(words)-1]] {
			want = true
		}
		if got := namedPathKey(k); got != want {
			t.Fatalf("namedPathKey(%q) = %v, words %q say %v", k, got, words, want)
		}
	})
}
