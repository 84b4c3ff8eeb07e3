package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

const testPolicy = `---
schema: governance.workspace/v1
name: adapter-test
title: Adapter test
description: The policy the adapter tests decide against.
version: 1.0.0
rules:
  default: allow
  deny: [Read(**/.env), Bash(rm:*)]
  ask: [Bash(git push:*)]
  allow: [Read(./src/**)]
---
`

func loadTestEngine(t *testing.T) (*governance.Engine, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "GOVERNANCE.md"), []byte(testPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := governance.LoadPolicy(filepath.Join(dir, "GOVERNANCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	return governance.NewEngine(p, governance.EngineOptions{}), dir
}

func TestRulesFromPolicy(t *testing.T) {
	e, _ := loadTestEngine(t)
	got := RulesFromPolicy(e.Policy().Rules())
	want := Rules{Deny: []string{"Read(**/.env)", "Bash(rm:*)"}, Ask: []string{"Bash(git push:*)"}, Allow: []string{"Read(./src/**)"}}
	if !slices.Equal(got.Deny, want.Deny) || !slices.Equal(got.Ask, want.Ask) || !slices.Equal(got.Allow, want.Allow) {
		t.Errorf("RulesFromPolicy(%q) = %+v, want %+v", e.Policy().Rules(), got, want)
	}
	// Lines that are not compact rules are left out.
	other := RulesFromPolicy([]string{"deny policy no-secrets (fs.read) (POLICY.md:3)", "allow Read (G.md:1) [advisory]", "garbage"})
	if !other.Empty() {
		t.Errorf("non-rule lines gave %+v", other)
	}
	// Rules for MCP tools with wildcards are kept: Gemini CLI's policy has
	// a form for them, and a trusted server's tools run unasked.
	mcp := RulesFromPolicy([]string{"deny mcp__notes__* (G.md:1)", "require-approval mcp__db__read_* (G.md:2)", "deny mcp__* (G.md:3)", "deny mcp__notes__*(x) (G.md:4)"})
	if want := []string{"mcp__notes__*", "mcp__*"}; !slices.Equal(mcp.Deny, want) || !slices.Equal(mcp.Ask, []string{"mcp__db__read_*"}) {
		t.Errorf("MCP rules gave %+v, want deny %q and ask [mcp__db__read_*]", mcp, want)
	}
}

type memRecorder struct {
	mu     sync.Mutex
	events []audit.Event
	err    error
}

func (r *memRecorder) AppendSync(ev audit.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	r.events = append(r.events, ev)
	return nil
}

func TestPolicyDeciderAudited(t *testing.T) {
	e, ws := loadTestEngine(t)
	rec := &memRecorder{}
	d := Audited(PolicyDecider(e), rec, AuditOptions{Operator: "agent:claude-agent-acp"})
	call := func(tool, input string) ToolCall {
		return ToolCall{Agent: Claude, Tool: tool, Input: json.RawMessage(input), Cwd: ws, SessionID: "sess-1", ToolUseID: "toolu_" + tool}
	}
	tests := []struct {
		name     string
		call     ToolCall
		verdict  Verdict
		decision string
	}{
		{"denied read", call("Read", `{"file_path":"`+ws+`/.env"}`), Deny, "deny"},
		{"denied command", call("Bash", `{"command":"ls && rm -rf /"}`), Deny, "deny"},
		{"asked command", call("Bash", `{"command":"git push origin main"}`), Ask, "require-approval"},
		{"allowed read", call("Read", `{"file_path":"`+ws+`/src/a.go"}`), Allow, "allow"},
		{"default allow", call("Glob", `{"pattern":"*.go"}`), Allow, "allow"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.DecideTool(context.Background(), tt.call)
			if err != nil {
				t.Fatal(err)
			}
			if got.Verdict != tt.verdict {
				t.Errorf("verdict = %q (%s), want %q", got.Verdict, got.Reason, tt.verdict)
			}
			if len(rec.events) != i+1 {
				t.Fatalf("%d audit events, want %d", len(rec.events), i+1)
			}
			ev := rec.events[i]
			if ev.Action != "tool.call" || ev.Policy == nil || ev.Policy.Decision != tt.decision ||
				string(ev.Input.(json.RawMessage)) != string(tt.call.Input) || ev.Metadata["stage"] != "hook" {
				t.Errorf("audit event = %+v", ev)
			}
			tc := ev.Metadata["toolCall"].(audit.ToolCall)
			if tc.Tool != tt.call.Tool || tc.Session != "sess-1" || tc.ToolCallID != tt.call.ToolUseID || tc.Operator != "agent:claude-agent-acp" {
				t.Errorf("tool-call mirror = %+v", tc)
			}
		})
	}
	t.Run("audit failure denies", func(t *testing.T) {
		rec.err = errors.New("disk full")
		defer func() { rec.err = nil }()
		got, _ := d.DecideTool(context.Background(), call("Glob", `{"pattern":"*"}`))
		if got.Verdict != Deny {
			t.Errorf("verdict with a broken audit log = %q, want deny", got.Verdict)
		}
		open := Audited(PolicyDecider(e), rec, AuditOptions{FailOpen: true})
		if got, _ := open.DecideTool(context.Background(), call("Glob", `{"pattern":"*"}`)); got.Verdict != Allow {
			t.Errorf("fail-open verdict = %q, want allow", got.Verdict)
		}
	})
}
