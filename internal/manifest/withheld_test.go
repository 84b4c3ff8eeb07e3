package manifest

import (
	"encoding/json"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestWithheldMethod: WithheldMethod names the capability a call needs
// that the manifest withholds, as Mask refuses it, in the call's own
// direction only, and WithheldError is the answer Mask gives.
func TestWithheldMethod(t *testing.T) {
	m := mustParse(t, readOnlyClient)
	for _, tt := range []struct {
		dir    acpwire.Direction
		method string
		want   string // the capability's ACP field; "" when granted
	}{
		{acpwire.AgentToClient, "fs/write_text_file", "clientCapabilities.fs.writeTextFile"},
		{acpwire.AgentToClient, "fs/read_text_file", ""},
		{acpwire.AgentToClient, "terminal/create", "clientCapabilities.terminal"},
		{acpwire.AgentToClient, "terminal/output", "clientCapabilities.terminal"},
		{acpwire.AgentToClient, "session/update", ""},
		{acpwire.ClientToAgent, "terminal/create", ""},
		{acpwire.ClientToAgent, "session/load", ""}, // the tier grants it
	} {
		c, ok := m.WithheldMethod(tt.dir, tt.method)
		if got := map[bool]string{true: c.ACPField()}[ok]; got != tt.want {
			t.Errorf("WithheldMethod(%v, %s) = %q, want %q", tt.dir, tt.method, got, tt.want)
		}
	}
	c, _ := m.WithheldMethod(acpwire.AgentToClient, "fs/write_text_file")
	got, _ := json.Marshal(m.WithheldError(c, "fs/write_text_file"))
	want := `{"code":-32601,"message":"method fs/write_text_file is not available: the bridge's manifest (test-manifest) does not grant clientCapabilities.fs.writeTextFile","data":{"capability":"clientCapabilities.fs.writeTextFile","manifest":"test-manifest"}}`
	if string(got) != want {
		t.Errorf("WithheldError = %s, want %s", got, want)
	}
}
