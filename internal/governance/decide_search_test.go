package governance

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// searchToolCase is a call of an agent's search tool: its input, the
// directory it runs in relative to the workspace, the decision it wants
// and, when refused, a text of the reason.
type searchToolCase struct {
	name, tool, input, cwd string
	want                   Value
	what                   string
}

// TestDecideSearchTool checks that an agent's own search tool (Claude
// Code's Grep, Gemini CLI's grep_search and read_many_files) is decided as
// reading every file beneath the directory it searches, as "grep -r" is:
// a denied or read-protected file there refuses it, whatever the tool's
// exclusions say; a search of a directory holding none, or one whose
// include glob provably leaves such files unread, is not refused. Its rows
// are in testdata/cases/search_tool_lines.txt.
func TestDecideSearchTool(t *testing.T) {
	e, root := treeReadWorkspace(t)
	tests := readCases(t, "search_tool_lines.txt", 6, map[string]string{"$ROOT": root}, func(c caseRow) searchToolCase {
		return searchToolCase{name: c.fields[0], tool: c.fields[1], input: c.fields[2], cwd: c.fields[3], want: Value(c.fields[4]), what: c.fields[5]}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := json.RawMessage(tt.input)
			cwd := filepath.Join(root, tt.cwd)
			req, err := ClaudeToolRequest(tt.tool, input, cwd)
			if err != nil {
				t.Fatal(err)
			}
			d := e.Decide(req)
			if d.Value != tt.want {
				t.Fatalf("%s %s: %s (%s), want %s", tt.tool, input, d.Value, d.Reason, tt.want)
			}
			if tt.what != "" && !strings.Contains(d.Reason, tt.what) {
				t.Errorf("reason %q does not name %q", d.Reason, tt.what)
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

// TestDecideGlobListing checks that Claude Code's Glob is decided as
// listing every directory beneath its path that its pattern may reach: a
// pattern naming a directory the policy refuses reading ("secrets/*", or
// any wildcard reaching it) is refused as Glob's path naming it is, and a
// file it only names is not read. Its rows are in
// testdata/cases/glob_listing_lines.txt.
func TestDecideGlobListing(t *testing.T) {
	_, root := tempWorkspace(t)
	tree{files: []string{".env", "secrets/api.key", "src/a.go", "docs/x.md"}}.make(t, root)
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(./secrets/**)\n    - Read(**/.env)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := readCases(t, "glob_listing_lines.txt", 5, map[string]string{"$ROOT": root}, func(c caseRow) searchToolCase {
		return searchToolCase{name: c.fields[0], tool: "Glob", input: c.fields[1], cwd: c.fields[2], want: Value(c.fields[3]), what: c.fields[4]}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := ClaudeToolRequest(tt.tool, json.RawMessage(tt.input), filepath.Join(root, tt.cwd))
			if err != nil {
				t.Fatal(err)
			}
			d := e.Decide(req)
			if d.Value != tt.want {
				t.Fatalf("Glob %s in %q: %s (%s), want %s", tt.input, tt.cwd, d.Value, d.Reason, tt.want)
			}
			if tt.what != "" && !strings.Contains(d.Reason, tt.what) {
				t.Errorf("reason %q does not name %q", d.Reason, tt.what)
			}
		})
	}
}

// TestGlobListingCountsDirectories checks that the walk of Claude Code's
// Glob counts only the directories it lists toward its bound: a workspace
// of many files in few directories is checked whole, one of more
// directories than the bound needs approval.
func TestGlobListingCountsDirectories(t *testing.T) {
	defer func(n int) { maxTreeEntries = n }(maxTreeEntries)
	maxTreeEntries = 3
	_, root := tempWorkspace(t)
	tree{files: []string{"a/1.go", "a/2.go", "a/3.go", "a/4.go", "b/5.go", "b/6.go"}}.make(t, root)
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(./secrets/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	decide := func() Decision {
		req, err := ClaudeToolRequest("Glob", json.RawMessage(`{"pattern":"**/*.go"}`), root)
		if err != nil {
			t.Fatal(err)
		}
		return e.Decide(req)
	}
	if d := decide(); d.Value != Allow {
		t.Errorf("Glob over 2 directories of 6 files: %s (%s), want allow", d.Value, d.Reason)
	}
	tree{dirs: []string{"c", "d", "e"}}.make(t, root)
	if d := decide(); d.Value != RequireApproval || !strings.Contains(d.Reason, "lists the files") {
		t.Errorf("Glob over 5 directories: %s (%s), want require-approval", d.Value, d.Reason)
	}
}
