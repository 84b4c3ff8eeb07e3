package compress

import (
	"context"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestToolCallUpdateAllocs: the compression middleware handles a
// tool_call_update completing a call with text output, once the session
// is known, with the allocations of the shared reading (acpparams,
// TestSharedUpdateOfAllocs) only: the list of the text entering the
// agent's context is not one of them, nor is the recorder's state of the
// call, which takes the state of the call done before.
func TestToolCallUpdateAllocs(t *testing.T) {
	p, err := New(Config{CacheDir: t.TempDir()}, noSender{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := p.Middleware()(acpwire.HandlerFunc(func(context.Context, *acpwire.Message) error { return nil }))
	parse := func(params string) *acpwire.Message {
		m, err := acpwire.Parse(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":`+params+`}`))
		if err != nil {
			t.Fatal(err)
		}
		m.Received = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		return m
	}
	update := parse(`{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"ok, all 12 tests pass"}}]}}`)
	handle := func(m acpwire.Message) {
		if err := h.Handle(context.Background(), &m); err != nil {
			t.Fatal(err)
		}
	}
	handle(*update) // the session's state is made
	got := testing.AllocsPerRun(100, func() { handle(*update) })
	// The message's copy, the reading (the reading, Memo's note, the
	// toolCallId).
	const want = 1 + 3
	if got != want {
		t.Errorf("allocations per tool_call_update = %v, want %v", got, want)
	}
}
