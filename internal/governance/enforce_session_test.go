package governance

import (
	"slices"
	"testing"
)

// TestEnforcerRoots: the roots of a session are those the IDE opened it
// with; an unknown session gets those of the one open session.
func TestEnforcerRoots(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, false)
	h.openSession()
	if got := h.enf.Roots("s1"); !slices.Equal(got, []string{h.root}) {
		t.Errorf("Roots(s1) = %v, want [%s]", got, h.root)
	}
	if got := h.enf.Roots("nobody"); !slices.Equal(got, []string{h.root}) {
		t.Errorf("Roots(nobody) = %v, want the one open session's: [%s]", got, h.root)
	}
}

// TestEnforcerRootsUnknownSessionSeveralOpen: with two sessions open in
// different workspaces, a session the bridge does not know gets neither
// workspace (not their union), so a write into either is outside it.
func TestEnforcerRootsUnknownSessionSeveralOpen(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, false)
	h.openSession()
	other := t.TempDir()
	h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, other)
	if m := h.nextAtAgent(); m["method"] != "session/new" {
		t.Fatalf("agent got %v, want session/new", m)
	}
	h.agent(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s2"}}`)
	h.nextAtIDE()
	if got := h.enf.Roots("s2"); !slices.Equal(got, []string{other}) {
		t.Errorf("Roots(s2) = %v, want [%s]", got, other)
	}
	got := h.enf.Roots("nobody")
	if slices.Contains(got, h.root) || slices.Contains(got, other) || len(got) == 0 {
		t.Errorf("Roots(nobody) = %v with two sessions open, want a root holding neither workspace", got)
	}
}
