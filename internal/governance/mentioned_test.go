package governance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
)

// TestMentionedStrings: every string of an unknown tool's input, at any
// depth, but the members the bridge reads already, sorted and each once.
func TestMentionedStrings(t *testing.T) {
	in := inputObject(json.RawMessage(`{"target":"/ws/.env","file_path":"/ws/a","command":"cat x/y","opts":{"b":["x/y","/ws/.env",3,true,null],"a":""},"n":1}`))
	got, more := mentionedStrings(in)
	if want := []string{"/ws/.env", "x/y"}; !slices.Equal(got, want) || more {
		t.Errorf("mentionedStrings = %q (more %v); want %q", got, more, want)
	}
	many := map[string]any{}
	for i := range maxMentioned + 1 {
		many[fmt.Sprint("k", i)] = fmt.Sprint("v", i)
	}
	if got, more := mentionedStrings(many); got != nil || !more {
		t.Errorf("mentionedStrings of %d strings = %d strings (more %v); want none and more", len(many), len(got), more)
	}
}

// TestMentionedOnlyForToolsNotKnown: Claude Code's own tools are read
// member by member; every other tool (an MCP tool, a tool the bridge does
// not know, a tool_call naming none) has its input's strings judged.
func TestMentionedOnlyForToolsNotKnown(t *testing.T) {
	raw := json.RawMessage(`{"x":"/a/b"}`)
	for name := range claudeOwnTools {
		if r, err := ClaudeToolRequest(name, raw, "/w"); err != nil || len(r.Mentioned) != 0 {
			t.Errorf("ClaudeToolRequest(%s) = %q, %v; want no strings judged", name, r.Mentioned, err)
		}
		if judgesMentioned(name) {
			t.Errorf("judgesMentioned(%s) = true", name)
		}
	}
	for _, name := range []string{"mcp__ide__open", "read_file", "Unknown"} {
		if r, err := ClaudeToolRequest(name, raw, "/w"); err != nil || !slices.Equal(r.Mentioned, []string{"/a/b"}) {
			t.Errorf("ClaudeToolRequest(%s) = %q, %v; want [/a/b]", name, r.Mentioned, err)
		}
		if !judgesMentioned(name) {
			t.Errorf("judgesMentioned(%s) = false", name)
		}
	}
	for _, tc := range []ToolCall{{Kind: "other", RawInput: raw}, {Tool: "mcp__x__y", RawInput: raw}, {Tool: "frob", Kind: "read", RawInput: raw}} {
		if r := ToolCallRequest(tc, "/w"); !slices.Equal(r.Mentioned, []string{"/a/b"}) {
			t.Errorf("ToolCallRequest(%+v) = %q; want [/a/b]", tc, r.Mentioned)
		}
	}
}

// mentionedInput is a tool's input, $ROOT standing for the workspace, the
// decision it wants and a text of the reason.
type mentionedInput struct {
	name, input string
	want        Value
	why         string
}

// TestDecideMentionedPaths: a string of an unknown tool's input that
// reads as a path is decided as a read and a write where a rule naming
// paths, self-protection or a per-process location restricts it; routes,
// identifiers, and files no rule names say nothing.
func TestDecideMentionedPaths(t *testing.T) {
	root := t.TempDir()
	home := t.TempDir()
	tree{
		texts: map[string]string{".env": "TOKEN=x", "src/a.go": "package a", "drafts/plan.md": "plan"},
		links: map[string]string{"here": "/proc/self/cwd"},
	}.make(t, root)
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(**/.env)\n  ask:\n    - Edit(./drafts/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Home: home, Protected: []ProtectedPath{{Path: root + "/GOVERNANCE.md", What: "the governance policy"}}})
	for _, tt := range readCases(t, "mentioned_input_lines.txt", 4, nil, func(c caseRow) mentionedInput {
		return mentionedInput{name: c.fields[0], input: c.fields[1], want: Value(c.fields[2]), why: c.fields[3]}
	}) {
		t.Run(tt.name, func(t *testing.T) {
			in := strings.ReplaceAll(tt.input, "$ROOT", root)
			req := ToolCallRequest(ToolCall{Tool: "mcp__ide__open", Kind: "other", RawInput: json.RawMessage(in)}, root)
			d := e.Decide(req)
			if d.Value != tt.want || !strings.Contains(d.Reason, tt.why) {
				t.Errorf("Decide(%s) = %v (%s); want %v about %q", in, d.Value, d.Reason, tt.want, tt.why)
			}
		})
	}
	many := map[string]string{}
	for i := range maxMentioned + 1 {
		many[fmt.Sprint("k", i)] = fmt.Sprint("v", i)
	}
	raw, _ := json.Marshal(many)
	if d := e.Decide(ToolCallRequest(ToolCall{Tool: "mcp__ide__open", RawInput: raw}, root)); d.Value != RequireApproval {
		t.Errorf("an input of %d strings: %v (%s); want require-approval", len(many), d.Value, d.Reason)
	}
}

// TestMentionedFingerprintStable: one input is always judged alike, so an
// approval of a call covers it as long as its input is the same.
func TestMentionedFingerprintStable(t *testing.T) {
	raw := json.RawMessage(`{"a":"x/1","b":"x/2","c":"x/3","d":{"e":"x/4","f":"x/5"},"g":["x/6","x/7"]}`)
	first := fingerprint(ToolCallRequest(ToolCall{Tool: "mcp__ide__open", RawInput: raw}, "/w"), nil)
	for range 50 {
		if fingerprint(ToolCallRequest(ToolCall{Tool: "mcp__ide__open", RawInput: raw}, "/w"), nil) != first {
			t.Fatal("the same input had two fingerprints")
		}
	}
	other := json.RawMessage(`{"a":"x/1","b":"x/2","c":"x/3","d":{"e":"x/4","f":"x/9"},"g":["x/6","x/7"]}`)
	if fingerprint(ToolCallRequest(ToolCall{Tool: "mcp__ide__open", RawInput: other}, "/w"), nil) == first {
		t.Error("inputs naming other strings had one fingerprint")
	}
}

// TestMergeCutsInputOfToolsNotKnown: a large input of a tool whose every
// string is judged keeps only the members fillFromInput reads, so the
// call is marked cut: changed later without its input, it is too large to
// judge again rather than judged without the strings dropped. Claude
// Code's own tools are judged on the kept members alone.
func TestMergeCutsInputOfToolsNotKnown(t *testing.T) {
	big := []byte(`{"target":"/w/.env","file_path":"/w/a.go","content":"` + strings.Repeat("x", maxKept) + `"}`)
	small := []byte(`{"target":"/w/.env"}`)
	for _, tt := range []struct {
		tool  string
		input []byte
		cut   bool
	}{
		{"", big, true},
		{"mcp__ide__open", big, true},
		{"Write", big, false},
		{"", small, false},
	} {
		c := &callState{tc: ToolCall{Tool: tt.tool}}
		c.merge(&acpparams.ToolCall{RawInput: tt.input})
		if got := c.cut&fieldInput != 0; got != tt.cut {
			t.Errorf("tool %q, input of %d bytes: cut %v; want %v", tt.tool, len(tt.input), got, tt.cut)
		}
	}
}
