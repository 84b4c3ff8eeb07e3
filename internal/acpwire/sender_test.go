package acpwire

import (
	"encoding/json"
	"testing"
)

// TestOwnCallID: the bridge recognises the ids of its own requests, and
// only those, without allocating (it checks every unclaimed response).
func TestOwnCallID(t *testing.T) {
	b := New(Options{})
	own := json.RawMessage(`"` + b.callID + `7"`)
	for _, c := range []struct {
		id   string
		want bool
	}{
		{string(own), true},
		{`"acp-bridge-000000000000-7"`, false},
		{`7`, false},
		{`"` + b.callID[:len(b.callID)-1] + `"`, false},
		{`""`, false},
	} {
		if got := b.ownCallID(json.RawMessage(c.id)); got != c.want {
			t.Errorf("ownCallID(%s) = %v, want %v", c.id, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { b.ownCallID(own) }); n != 0 {
		t.Errorf("ownCallID allocates %v times per call", n)
	}
}
