package governance

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDecideSearchTool checks that an agent's own search tool (Claude
// Code's Grep, Gemini CLI's grep_search and read_many_files) is decided as
// reading every file beneath the directory it searches, as "grep -r" is:
// a denied or read-protected file there refuses it, whatever the tool's
// exclusions say; a search of a directory holding none, or one whose
// include glob provably leaves such files unread, is not refused.
func TestDecideSearchTool(t *testing.T) {
	e, root := treeReadWorkspace(t)
	tests := []struct {
		name  string
		tool  string
		input string // ROOT is the workspace root
		cwd   string // relative to root
		want  Value
		what  string // substring of the reason when refused
	}{
		{"Grep without a path", "Grep", `{"pattern":"SECRET"}`, "", Deny, "ROOT/.env"},
		{"Grep of the workspace", "Grep", `{"pattern":"SECRET","path":"ROOT","output_mode":"content"}`, "", Deny, ".env"},
		{"Grep of a directory with a denied file deep", "Grep", `{"pattern":"x","path":"ROOT/vault"}`, "", Deny, "vault/.env"},
		{"Grep from a subdirectory's cwd", "Grep", `{"pattern":"x"}`, "vault", Deny, "vault/.env"},
		{"Grep reaching the audit log", "Grep", `{"pattern":"x","path":"ROOT/audit"}`, "", Deny, "the audit log"},
		{"Grep with an exclusion glob", "Grep", `{"pattern":"x","glob":"!.env"}`, "", Deny, ".env"},
		{"Grep with a list glob picking .env", "Grep", `{"pattern":"x","glob":"*.go,.e*"}`, "", Deny, ".env"},
		{"Grep with a spaced glob picking .env", "Grep", `{"pattern":"x","glob":"*.go .env"}`, "", Deny, ".env"},
		{"Grep with a glob split at a BOM", "Grep", `{"pattern":"x","glob":"*.go\ufeff.e*"}`, "", Deny, ".env"},
		{"Grep with a class glob", "Grep", `{"pattern":"x","glob":"*.[g]o"}`, "", Deny, ".env"},
		{"Grep with a brace glob", "Grep", `{"pattern":"x","glob":"*.{go,txt}"}`, "", Deny, ".env"},
		{"Grep with a path glob", "Grep", `{"pattern":"x","glob":"src/*.go"}`, "", Deny, ".env"},
		{"Grep with a type", "Grep", `{"pattern":"x","type":"go"}`, "", Deny, ".env"},
		{"Grep of a clean directory", "Grep", `{"pattern":"x","path":"ROOT/src"}`, "", Allow, ""},
		{"Grep of the workspace for Go files", "Grep", `{"pattern":"x","glob":"*.go"}`, "", Allow, ""},
		{"Grep of the workspace for Go and text files", "Grep", `{"pattern":"x","glob":"*.go,*.txt"}`, "", Allow, ""},
		{"Grep not following a linked directory", "Grep", `{"pattern":"x","path":"ROOT/clean"}`, "", Allow, ""},
		{"Gemini grep_search of the cwd", "grep_search", `{"pattern":"x"}`, "", Deny, ".env"},
		{"Gemini grep_search past its include", "grep_search", `{"pattern":"x","dir_path":"ROOT","include_pattern":"*.go"}`, "", Deny, ".env"},
		{"Gemini grep_search following a link", "grep_search", `{"pattern":"x","dir_path":"ROOT/clean"}`, "", Deny, "keys/.env"},
		{"Gemini search_file_content", "search_file_content", `{"pattern":"x","path":"ROOT/vault"}`, "", Deny, "vault/.env"},
		{"Gemini grep_search of a clean directory", "grep_search", `{"pattern":"x","dir_path":"ROOT/src"}`, "", Allow, ""},
		{"Gemini read_many_files of everything", "read_many_files", `{"include":["**/*"]}`, "", Deny, ".env"},
		{"Gemini read_many_files of a directory", "read_many_files", `{"include":["ROOT/vault"]}`, "", Deny, "vault/.env"},
		{"Gemini read_many_files of a clean glob", "read_many_files", `{"include":["ROOT/src/**/*.go"]}`, "", Allow, ""},
		{"Glob lists names only", "Glob", `{"pattern":"**/*","path":"ROOT"}`, "", Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := json.RawMessage(strings.ReplaceAll(tt.input, "ROOT", root))
			cwd := strings.TrimSuffix(root+"/"+tt.cwd, "/")
			req, err := ClaudeToolRequest(tt.tool, input, cwd)
			if err != nil {
				t.Fatal(err)
			}
			d := e.Decide(req)
			if d.Value != tt.want {
				t.Fatalf("%s %s: %s (%s), want %s", tt.tool, input, d.Value, d.Reason, tt.want)
			}
			if what := strings.ReplaceAll(tt.what, "ROOT", root); what != "" && !strings.Contains(d.Reason, what) {
				t.Errorf("reason %q does not name %q", d.Reason, what)
			}
			// The wire sees the same call as a tool_call update.
			if w := e.Decide(ToolCallRequest(ToolCall{Tool: tt.tool, RawInput: input}, cwd)); w.Value != tt.want {
				t.Errorf("as a tool call update: %s (%s), want %s", w.Value, w.Reason, tt.want)
			}
		})
	}
}

// TestRipgrepPicks checks which of Claude Code's Grep globs the walk
// trusts to leave a file unread: include pieces of plain characters, "*"
// and "?", split as Grep splits them; never an exclusion.
func TestRipgrepPicks(t *testing.T) {
	tests := []struct {
		glob string
		want []string
	}{
		{"", nil},
		{"*.go", []string{"*.go"}},
		{"*.go,*.ts", []string{"*.go", "*.ts"}},
		{"*.go *.ts", []string{"*.go", "*.ts"}},
		{"!*.env", nil},
		{"*.go,!.env", []string{"*.go"}},
		{"*.{go,ts}", nil},
		{"src/**/*.go", nil},
		{"*.[ch]", nil},
		{`\*.go`, nil},
		{"*.go\ufeff.env", nil},
		{"*.go\u00a0.env", nil},
		{"*.go\u0085.env", nil},
		{"*.go\x00", nil},
		{"*.go\t*.ts", []string{"*.go", "*.ts"}},
	}
	for _, tt := range tests {
		got := ripgrepPicks(tt.glob)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || (got == nil) != (tt.want == nil) {
			t.Errorf("ripgrepPicks(%q) = %q, want %q", tt.glob, got, tt.want)
		}
	}
}
