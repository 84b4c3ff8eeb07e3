package governance

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClaudeToolRequest(t *testing.T) {
	tests := []struct {
		tool, input string
		want        Request
	}{
		{"Read", `{"file_path":"/w/a.go","offset":10}`, Request{Action: ActionToolCall, Tool: "Read", Kind: "read", Paths: []string{"/w/a.go"}, Cwd: "/w"}},
		{"Write", `{"file_path":"/w/b.go","content":"x"}`, Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{"/w/b.go"}, Cwd: "/w"}},
		{"MultiEdit", `{"file_path":"/w/c.go","edits":[]}`, Request{Action: ActionToolCall, Tool: "MultiEdit", Kind: "edit", Paths: []string{"/w/c.go"}, Cwd: "/w"}},
		{"NotebookEdit", `{"notebook_path":"/w/n.ipynb","new_source":"x"}`, Request{Action: ActionToolCall, Tool: "NotebookEdit", Kind: "edit", Paths: []string{"/w/n.ipynb"}, Cwd: "/w"}},
		{"Bash", `{"command":"go test ./...","timeout":1000}`, Request{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: "go test ./...", Cwd: "/w"}},
		{"Bash", `{}`, Request{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Cwd: "/w", CommandUnknown: true}},
		{"Glob", `{"pattern":"**/*.go"}`, Request{Action: ActionToolCall, Tool: "Glob", Kind: "search", Paths: []string{"/w"}, Cwd: "/w", Searched: []Search{{Tool: "Claude Code's Glob", Dir: "/w", Names: true}}}},
		{"Glob", `{"pattern":"/etc/**/*.conf"}`, Request{Action: ActionToolCall, Tool: "Glob", Kind: "search", Paths: []string{"/etc"}, Cwd: "/w", Searched: []Search{{Tool: "Claude Code's Glob", Dir: "/etc", Names: true}}}},
		{"Grep", `{"pattern":"TODO","path":"/w/src"}`, Request{Action: ActionToolCall, Tool: "Grep", Kind: "search", Paths: []string{"/w/src"}, Cwd: "/w", Searched: []Search{{Tool: "Claude Code's Grep", Dir: "/w/src"}}}},
		{"Grep", `{"pattern":"KEY","glob":".env","output_mode":"content"}`, Request{Action: ActionToolCall, Tool: "Grep", Kind: "search", Paths: []string{"/w", "/w/**/.env"}, Cwd: "/w", Searched: []Search{{Tool: "Claude Code's Grep", Dir: "/w", Picks: []string{".env"}}}}},
		{"Grep", `{"pattern":"KEY","path":"/w/cfg","glob":"secrets/*.json"}`, Request{Action: ActionToolCall, Tool: "Grep", Kind: "search", Paths: []string{"/w/cfg", "/w/cfg/secrets/*.json"}, Cwd: "/w", Searched: []Search{{Tool: "Claude Code's Grep", Dir: "/w/cfg"}}}},
		{"read_many_files", `{"paths":["/w/a.go","/w/.env"],"include":["*.md"]}`, Request{Action: ActionToolCall, Tool: "read_many_files", Paths: []string{"/w/a.go", "/w/.env", "/w/**/*.md"}, Cwd: "/w",
			Searched: []Search{{Tool: "Gemini CLI's read_many_files", Dir: ".", Follow: true}, {Tool: "Gemini CLI's read_many_files", Dir: "/w/a.go", Follow: true}, {Tool: "Gemini CLI's read_many_files", Dir: "/w/.env", Follow: true}}}},
		{"WebFetch", `{"url":"https://example.com/x","prompt":"p"}`, Request{Action: ActionToolCall, Tool: "WebFetch", Kind: "fetch", URL: "https://example.com/x", Cwd: "/w"}},
		{"WebSearch", `{"query":"acp"}`, Request{Action: ActionToolCall, Tool: "WebSearch", Kind: "fetch", Cwd: "/w"}},
		{"Task", `{"description":"d","prompt":"p"}`, Request{Action: ActionToolCall, Tool: "Task", Kind: "think", Cwd: "/w"}},
		{"mcp__github__create_issue", `{"title":"t"}`, Request{Action: ActionToolCall, Tool: "mcp__github__create_issue", Cwd: "/w", Mentioned: []string{"t"}}},
	}
	for _, tt := range tests {
		got, err := ClaudeToolRequest(tt.tool, []byte(tt.input), "/w")
		if err != nil {
			t.Fatalf("%s %s: %v", tt.tool, tt.input, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tt.tool, tt.input, diff)
		}
	}
	if _, err := ClaudeToolRequest("Read", []byte(`[1]`), "/w"); err == nil {
		t.Error("a tool_input that is not an object was accepted")
	}
}

func TestToolCallRequest(t *testing.T) {
	tests := []struct {
		name string
		tc   ToolCall
		want Request
	}{
		{"claude read with location", ToolCall{Kind: "read", Title: "Read a.go", Tool: "Read", RawInput: []byte(`{"file_path":"/w/a.go"}`), Locations: []string{"/w/a.go"}},
			Request{Action: ActionToolCall, Tool: "Read", Kind: "read", Title: "Read a.go", Paths: []string{"/w/a.go"}, Cwd: "/w"}},
		{"gemini shell", ToolCall{Kind: "execute", Title: "ls", RawInput: []byte(`{"command":"ls -la","directory":"/w/sub"}`)},
			Request{Action: ActionToolCall, Kind: "execute", Title: "ls", Command: "ls -la", Paths: []string{"/w/sub"}, Cwd: "/w/sub"}},
		{"codex argv", ToolCall{Kind: "execute", Title: "run", RawInput: []byte(`{"command":["bash","-lc","rm -rf /tmp/x"],"cwd":"/w"}`)},
			Request{Action: ActionToolCall, Kind: "execute", Title: "run", Command: "bash -lc 'rm -rf /tmp/x'", Paths: []string{"/w"}, Cwd: "/w"}},
		{"no input yet", ToolCall{Kind: "execute"},
			Request{Action: ActionToolCall, Kind: "execute", Cwd: "/w", CommandUnknown: true}},
		{"gemini shell permission: command in the title", ToolCall{Kind: "execute", Title: "curl -s http://x/ > out.txt"},
			Request{Action: ActionToolCall, Kind: "execute", Title: "curl -s http://x/ > out.txt", Command: "curl -s http://x/ > out.txt", Cwd: "/w"}},
		{"claude bash title before its input", ToolCall{Kind: "execute", Tool: "Bash", Title: "`git push`", RawInput: []byte(`{}`)},
			Request{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Title: "`git push`", Command: "git push", Cwd: "/w"}},
		{"move", ToolCall{Kind: "move", RawInput: []byte(`{"source":"/w/a","destination":"/tmp/b"}`)},
			Request{Action: ActionToolCall, Kind: "move", Paths: []string{"/w/a", "/tmp/b"}, Cwd: "/w"}},
	}
	for _, tt := range tests {
		got := ToolCallRequest(tt.tc, "/w")
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestDecideSearchFilters checks that the files a tool's input lists
// (Gemini's read_many_files paths) and a search's file filter (Grep's
// glob) are judged: a deny rule for .env refuses them, as it refuses a
// Read of .env.
func TestDecideSearchFilters(t *testing.T) {
	root := t.TempDir()
	e := NewEngine(testPolicy(t, "  default: allow\n  deny: [Read(**/.env)]\n"), EngineOptions{Roots: []string{root}})
	// tool is Claude's tool name (its hook), or an ACP kind (Gemini
	// reports read_many_files as kind read, search_file_content as search).
	tests := []struct {
		name, tool, input string
		want              Value
	}{
		{"Grep over .env files", "Grep", `{"pattern":"KEY","glob":".env","output_mode":"content"}`, Deny},
		{"Grep over .env files at any depth", "Grep", `{"pattern":"KEY","glob":"**/.env","path":"` + root + `"}`, Deny},
		{"read_many_files listing .env", "read", `{"paths":["` + root + `/a.go","` + root + `/.env"]}`, Deny},
		{"search_file_content including .env", "search", `{"pattern":"KEY","include":".env"}`, Deny},
		{"Grep over Go files", "Grep", `{"pattern":"KEY","glob":"*.go"}`, Allow},
		{"read_many_files of sources", "read", `{"paths":["` + root + `/a.go"]}`, Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := ClaudeToolRequest(tt.tool, []byte(tt.input), root)
			if tt.tool == "read" || tt.tool == "search" {
				req = ToolCallRequest(ToolCall{Kind: tt.tool, Title: tt.name, RawInput: []byte(tt.input)}, root)
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := e.Decide(req); d.Value != tt.want {
				t.Errorf("Decide(%s %s) = %v (%s); want %s", tt.tool, tt.input, d.Value, d.Reason, tt.want)
			}
		})
	}
}

// TestDecideOpaqueToolCalls checks that a tool call claiming neither a
// read nor a write (kind other or think, a tool name in another case) is
// held to the rules restricting reads and writes of the paths it names,
// and that this never makes a decision weaker.
func TestDecideOpaqueToolCalls(t *testing.T) {
	root := t.TempDir()
	e := NewEngine(testPolicy(t, "  default: allow\n  deny: [Edit(**/.env)]\n  ask: [Read(**/*.pem)]\n"), EngineOptions{Roots: []string{root}})
	tests := []struct {
		name string
		tc   ToolCall
		want Value
	}{
		{"kind other on .env", ToolCall{Kind: "other", Title: "Tidy config", RawInput: []byte(`{"file_path":"` + root + `/.env"}`)}, Deny},
		{"kind think on .env", ToolCall{Kind: "think", RawInput: []byte(`{"path":"` + root + `/.env"}`)}, Deny},
		{"a write tool named in lower case", ToolCall{Tool: "write", RawInput: []byte(`{"file_path":"` + root + `/.env"}`)}, Deny},
		{"kind other on a key", ToolCall{Kind: "other", RawInput: []byte(`{"file_path":"` + root + `/k.pem"}`)}, RequireApproval},
		{"kind other outside the workspace", ToolCall{Kind: "other", RawInput: []byte(`{"file_path":"/nowhere-acpb/k.pem"}`)}, Deny},
		{"kind other on an ordinary file", ToolCall{Kind: "other", RawInput: []byte(`{"file_path":"` + root + `/a.go"}`)}, Allow},
		{"kind execute naming .env", ToolCall{Kind: "execute", RawInput: []byte(`{"command":"true","file_path":"` + root + `/.env"}`)}, Deny},
		{"kind execute in the workspace", ToolCall{Kind: "execute", RawInput: []byte(`{"command":"ls","cwd":"` + root + `"}`)}, Allow},
		{"kind read on .env", ToolCall{Kind: "read", RawInput: []byte(`{"file_path":"` + root + `/.env"}`)}, Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := e.Decide(ToolCallRequest(tt.tc, root)); d.Value != tt.want {
				t.Errorf("Decide(%+v) = %v (%s); want %s", tt.tc, d.Value, d.Reason, tt.want)
			}
		})
	}
}
