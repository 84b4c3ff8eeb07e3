package compress

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// recordedOnWrite is middleware that, once the layers past it have
// written a message in direction dir carrying an offload reference,
// sends on seen whether the pipeline had logged the offload by then.
func recordedOnWrite(p **Pipeline, dir acpwire.Direction, seen chan<- bool) acpwire.Middleware {
	return func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			err := next.Handle(ctx, m)
			if m.Dir == dir && strings.Contains(string(m.Raw), "Offloaded Content Reference") {
				logged := false
				for _, e := range (*p).Events().Recent("", recentEvents) {
					logged = logged || e.Type == "TIER_1"
				}
				seen <- logged
			}
			return err
		})
	}
}

// TestOffloadRecordedBeforeWritten: a tier 1 offload is in the event log
// (and so the audit log) by the time the message carrying its reference
// has been written to the peer, so the records of what the peer does next
// (the agent's tool call after it read the reference) come after it in
// the audit log, as they happened.
func TestOffloadRecordedBeforeWritten(t *testing.T) {
	for _, tt := range []struct {
		name string
		dir  acpwire.Direction
		send func(h *harness)
	}{
		{"toward the agent", acpwire.ClientToAgent, func(h *harness) {
			h.ide(promptMsg(2, "s1", textBlock("review"), map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///repo/big.log", "text": bigOutput("b")}}))
			h.readAgent()
		}},
		{"toward the IDE", acpwire.AgentToClient, func(h *harness) {
			h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "notes", "kind": "think", "status": "completed",
				"content": []any{map[string]any{"type": "content", "content": textBlock(bigOutput("a"))}}}))
			h.readIDE()
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var p *Pipeline
			seen := make(chan bool, 1)
			var log strings.Builder
			b := acpwire.New(acpwire.Options{})
			p, err := New(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), EventLog: &log, OffloadTokens: 100}, b)
			if err != nil {
				t.Fatal(err)
			}
			if tt.dir == acpwire.ClientToAgent {
				b.UseNonRetaining(p, recordedOnWrite(&p, tt.dir, seen))
			} else {
				b.UseNonRetaining(recordedOnWrite(&p, tt.dir, seen), p)
			}
			h := &harness{Harness: acpwiretest.Start(t, b), t: t, p: p, log: &log}
			h.newSession(1, "/repo", "s1")
			tt.send(h)
			if !<-seen {
				t.Fatal("the message carrying the offload reference was written before the offload was logged")
			}
		})
	}
}
