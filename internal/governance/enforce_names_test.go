package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// namesEnforcer is an enforcer under a policy denying the tools of MCP
// server evil, allowing those of good, reads and edits but asking about
// edits under drafts/ and anything else, with session s1 in a
// fresh workspace, which it returns.
func namesEnforcer(t *testing.T) (*Enforcer, string) {
	t.Helper()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "drafts"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := testPolicy(t, "  default: ask\n  deny:\n    - mcp__evil__*\n  ask:\n    - Edit(./drafts/**)\n  allow:\n    - Read\n    - Edit(./**)\n    - mcp__good__*\n")
	x := NewEnforcer(EnforceOptions{Engine: NewEngine(p, EngineOptions{Roots: []string{ws}, Home: t.TempDir()})})
	x.mu.Lock()
	x.sessionLocked("s1").cwd = ws
	x.mu.Unlock()
	return x, ws
}

// TestJudgeCallUnderEveryName: a call is judged under ACP's name as under
// the name in _meta, under both when they differ, and as the kind the IDE
// shows when a name reads it as another.
func TestJudgeCallUnderEveryName(t *testing.T) {
	x, ws := namesEnforcer(t)
	notes, plan := filepath.Join(ws, "notes.md"), filepath.Join(ws, "drafts", "plan.md")
	write := func(path string) []byte { return []byte(`{"file_path":"` + path + `","content":"x"}`) }
	for _, tt := range []struct {
		name string
		call ToolCall
		want Value
		why  string
	}{
		{"name denied", ToolCall{Kind: "edit", Title: "Tidy notes", Name: "mcp__evil__wipe", RawInput: write(notes)}, Deny, "mcp__evil__wipe"},
		{"meta denied", ToolCall{Kind: "edit", Title: "Tidy notes", Tool: "mcp__evil__wipe", RawInput: write(notes)}, Deny, ""},
		{"name denied, meta allowed", ToolCall{Kind: "edit", Title: "Write", Tool: "Write", Name: "mcp__evil__wipe", RawInput: write(notes)}, Deny, "mcp__evil__wipe"},
		{"meta denied, name allowed", ToolCall{Kind: "edit", Title: "Write", Tool: "mcp__evil__wipe", Name: "Write", RawInput: write(notes)}, Deny, ""},
		{"names agree", ToolCall{Kind: "edit", Title: "Write", Tool: "Write", Name: "Write", RawInput: write(notes)}, Allow, ""},
		{"name allowed", ToolCall{Kind: "edit", Title: "Tidy", Name: "mcp__good__tidy", RawInput: write(notes)}, Allow, ""},
		{"name alone allowed by its rule", ToolCall{Kind: "other", Title: "Tidy", Name: "mcp__good__tidy"}, Allow, ""},
		{"no name asked", ToolCall{Kind: "other", Title: "Tidy"}, RequireApproval, ""},
		{"edit named Read in meta", ToolCall{Kind: "edit", Title: "Edit plan", Tool: "Read", RawInput: write(plan)}, RequireApproval, `kind "edit"`},
		{"edit named Read", ToolCall{Kind: "edit", Title: "Edit plan", Name: "Read", RawInput: write(plan)}, RequireApproval, "drafts"},
		{"read named Read", ToolCall{Kind: "read", Title: "Read plan", Name: "Read", RawInput: write(plan)}, Allow, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, _, _ := x.judgeCall("s1", tt.call)
			if d.Value != tt.want || !strings.Contains(d.Reason, tt.why) {
				t.Errorf("decision %s (%s), want %s with a reason naming %q", d.Value, d.Reason, tt.want, tt.why)
			}
		})
	}
}

// TestNameChangesFingerprint: a name given or changed after a decision
// makes the call another call to approve.
func TestNameChangesFingerprint(t *testing.T) {
	x, ws := namesEnforcer(t)
	call := ToolCall{Kind: "edit", Title: "Write", Tool: "Write", RawInput: []byte(`{"file_path":"` + ws + `/notes.md"}`)}
	_, before, _ := x.judgeCall("s1", call)
	call.Name = "mcp__good__tidy"
	_, after, cv := x.judgeCall("s1", call)
	if before == after {
		t.Error("the fingerprint is the same after the call was given another name")
	}
	if cv == nil || !cv.write {
		t.Errorf("coverage %+v: an approval of a write named twice covers the write", cv)
	}
}

// TestRecordNamesToolByName: the audit record names the tool as ACP's
// name does.
func TestRecordNamesToolByName(t *testing.T) {
	x := NewEnforcer(EnforceOptions{})
	c := &callState{tc: ToolCall{Tool: "Write", Name: "mcp__evil__wipe", Kind: "edit"}}
	if got := x.toolName(c); got != "mcp__evil__wipe" {
		t.Errorf("toolName = %q, want ACP's name", got)
	}
}

// TestTitleShowsTheKindTheIDEShows: a call of kind edit the agent names
// Read is shown to the person as the edit it is.
func TestTitleShowsTheKindTheIDEShows(t *testing.T) {
	x, ws := namesEnforcer(t)
	for _, call := range []ToolCall{
		{Kind: "edit", Title: "Read plan", Tool: "Read", RawInput: []byte(`{"file_path":"` + ws + `/drafts/plan.md","content":"x"}`)},
		{Kind: "edit", Title: "Read plan", Name: "Read", RawInput: []byte(`{"file_path":"` + ws + `/drafts/plan.md","content":"x"}`)},
	} {
		if got, _ := x.judgedTitle("s1", call); got != "Edit `drafts/plan.md`" {
			t.Errorf("tool %q name %q: shown %q, want the edit", call.Tool, call.Name, got)
		}
	}
}
