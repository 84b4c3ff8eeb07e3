package governance

import (
	"slices"
	"testing"
)

// TestEnforcerRoots: the roots of a session are those the IDE opened it
// with; an unknown session gets those of every open session.
func TestEnforcerRoots(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, false)
	h.openSession()
	if got := h.enf.Roots("s1"); !slices.Equal(got, []string{h.root}) {
		t.Errorf("Roots(s1) = %v, want [%s]", got, h.root)
	}
	if got := h.enf.Roots("nobody"); !slices.Equal(got, []string{h.root}) {
		t.Errorf("Roots(nobody) = %v, want every open session's: [%s]", got, h.root)
	}
}
