package acpwire_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// harness is a Bridge running over real pipes (acpwiretest), kept with the
// Bridge for the tests that call its own methods (Call, Notify).
type harness struct {
	*acpwiretest.Harness
	b *acpwire.Bridge
}

// newHarness runs a Bridge with opts and the middleware mws build for it.
func newHarness(t *testing.T, opts acpwire.Options, mws ...func(*acpwire.Bridge) acpwire.Middleware) *harness {
	t.Helper()
	b := acpwire.New(opts)
	for _, mw := range mws {
		b.Use(mw(b))
	}
	return newHarnessFor(t, b)
}

// newHarnessFor runs b, with its middleware already added.
func newHarnessFor(t *testing.T, b *acpwire.Bridge) *harness {
	t.Helper()
	return &harness{Harness: acpwiretest.Start(t, b), b: b}
}

// pass sends line in direction d, from the IDE or the agent, and returns
// what the other peer received.
func (h *harness) pass(d acpwire.Direction, line string) string {
	if d == acpwire.ClientToAgent {
		h.FromClient(line)
		return h.AgentGets()
	}
	h.FromAgent(line)
	return h.ClientGets()
}

// callResult is what one of the bridge's own calls returned.
type callResult struct {
	raw json.RawMessage
	err error
}

// callAsync makes the bridge's call of method in direction d in the
// background and returns the channel its result arrives on.
func (h *harness) callAsync(d acpwire.Direction, method string, params any) <-chan callResult {
	done := make(chan callResult, 1)
	go func() {
		raw, err := h.b.Call(context.Background(), d, method, params)
		done <- callResult{raw, err}
	}()
	return done
}
