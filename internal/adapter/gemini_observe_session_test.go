package adapter

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// TestGeminiObserveNamesTheIDESession: Gemini's report of a call its policy
// engine refused is recorded under the IDE's id for the session. After a
// compression rollover Gemini works in d1, a session the bridge opened,
// which the IDE and the audit log know as s1: the record names s1 (and d1
// as agentSession), so that the session's records are all under one id. A
// report in a session the IDE never opened, which governance drops before
// the IDE sees it, leaves no record: the audit log would hold a refusal in
// a session that does not exist.
func TestGeminiObserveNamesTheIDESession(t *testing.T) {
	sessions := map[string]string{"s1": "s1", "d1": "s1"} // agent's id -> IDE's, for sessions the IDE opened
	cfg := Config{Session: func(id string) (string, bool) {
		ide, ok := sessions[id]
		if !ok {
			return id, false
		}
		return ide, true
	}}
	line := func(session string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + session + `","update":{"sessionUpdate":"tool_call","toolCallId":"run_shell_command__1",` +
			`"status":"failed","title":"cat .env","content":[{"type":"content","content":{"type":"text","text":"Tool execution denied by policy."}}]}}}`
	}
	for _, tt := range []struct {
		name, session string
		want          []string // in the log; none: no record
		not           []string
	}{
		{"the IDE's session", "s1", []string{`"session":"s1"`}, []string{`"agentSession"`}},
		{"the session a rollover opened", "d1", []string{`"session":"s1"`, `"agentSession":"d1"`}, []string{`"session":"d1"`}},
		{"a session the IDE never opened", "sess-evil", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := observeWith(t, audit.ContentFull, line(tt.session), func(log *audit.Log) *gemini {
				c := cfg
				c.Audit, c.Logger = log, slog.New(slog.DiscardHandler)
				g, err := newGemini(c)
				if err != nil {
					t.Fatal(err)
				}
				g.dir = t.TempDir() // as Spawn sets it: Gemini runs with the bridge's rules
				return g
			})
			checkRecorded(t, got, tt.want, "a session the IDE never opened")
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("log holds %s:\n%s", n, got)
				}
			}
		})
	}
}

// TestGeminiObserveAfterRollover: the same through OptionsFrom with the
// real enforcer and compression pipeline: A was rolled over to D, B is
// open, Z was never opened. Gemini's refused call in D is recorded under
// A, one in B under B, and one in Z not at all.
func TestGeminiObserveAfterRollover(t *testing.T) {
	e, enf, p, _, _ := rolledOver(t)
	o := OptionsFrom(&acpwire.AgentCommand{Path: "gemini", Args: []string{"--acp"}}, &governance.Setup{Policy: e.Policy(), Engine: e, Enforcer: enf}, p, nil)
	for _, tt := range []struct{ agent, want string }{{"D", "A"}, {"B", "B"}, {"Z", ""}} {
		t.Run(tt.agent, func(t *testing.T) {
			rec := &memRecorder{}
			c := o.Config
			c.Audit = rec
			g, err := newGemini(c)
			if err != nil {
				t.Fatal(err)
			}
			g.dir = t.TempDir()
			m, err := acpwire.Parse(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"`+tt.agent+
				`","update":{"sessionUpdate":"tool_call","toolCallId":"run_shell_command__1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"denied by policy"}}]}}}`))
			if err != nil {
				t.Fatal(err)
			}
			g.Observe(m)
			if tt.want == "" {
				if len(rec.events) != 0 {
					t.Fatalf("%d records for a session the IDE never opened", len(rec.events))
				}
				return
			}
			var sessions []any
			for _, ev := range rec.events {
				sessions = append(sessions, ev.Metadata["session"])
			}
			if len(sessions) != 1 || sessions[0] != tt.want {
				t.Fatalf("records in sessions %v, want one in %s", sessions, tt.want)
			}
		})
	}
}
