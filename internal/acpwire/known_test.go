package acpwire_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// TestKnownStrings: a message the bridge checked strictly carries where
// its long string literals are, answered for slices of its own bytes only
// and as reading them answers; a text chunk (not checked strictly), a
// short message, a replacement and a message whose bytes a middleware
// swapped carry none.
func TestKnownStrings(t *testing.T) {
	out := `"` + strings.Repeat(`the build failed on line 12.\n`, 40) + `"`
	update := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":` + out + `}}]}}}`
	chunk := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":` + out + `}}}}`
	short := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}}}`
	type seen struct {
		raw, params             []byte
		known, replaced, copied rawjson.KnownStrings
	}
	got := make(chan seen, 3)
	mw := func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			s := seen{raw: m.Raw, params: m.Params, known: m.KnownStrings()}
			if r, err := m.WithRaw(bytes.Clone(m.Raw)); err == nil {
				s.replaced = r.KnownStrings()
			}
			c := *m
			c.Raw = bytes.Clone(m.Raw)
			s.copied = c.KnownStrings()
			got <- s
			return next.Handle(ctx, m)
		})
	}
	h := newHarness(t, acpwire.Options{}, func(*acpwire.Bridge) acpwire.Middleware { return mw })

	h.pass(acpwire.AgentToClient, update)
	s := <-got
	if s.known.Len() == 0 {
		t.Fatal("a tool_call_update checked strictly carries no record of its output")
	}
	at := bytes.Index(s.params, []byte(out))
	end, ok := s.known.End(s.params, at)
	if want, _ := rawjson.ValidString(s.params, at); !ok || end != want {
		t.Fatalf("End of the output in params = %d, %v; want %d", end, ok, want)
	}
	if _, ok := s.known.End(bytes.Clone(s.params), at); ok {
		t.Error("the record answered for a copy of the params")
	}
	if s.replaced.Len() != 0 {
		t.Error("a replacement carries the record: it was not checked strictly")
	}
	if s.copied.Len() != 0 {
		t.Error("a copy of the message with other bytes carries the record")
	}

	for _, line := range []string{chunk, short} {
		h.pass(acpwire.AgentToClient, line)
		if s := <-got; s.known.Len() != 0 {
			t.Errorf("%.80s...: a record, want none", line)
		}
	}
}
