package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// A login method can be a terminal too: Zed runs a method of type
// "terminal" (the agent's own command line with the method's args and env)
// or one whose _meta holds "terminal-auth" (the command written there) in
// a terminal of its own when the person presses its button, and tells the
// agent it will by clientCapabilities._meta["terminal-auth"]. A manifest
// that withholds the terminal withholds those as well: the flag is set to
// false in the client's initialize request, and such methods are taken out
// of the agent's initialize response.

// maskLoginTerminals applies the manifest's withheld terminal to the login
// methods of an initialize message (request or response).
func (k *masker) maskLoginTerminals(m *acpwire.Message) (*acpwire.Message, error) {
	if k.caps.Has(Terminal) {
		return m, nil
	}
	if m.Kind == acpwire.KindRequest {
		v, ok := m.Get("params", "clientCapabilities", "_meta", "terminal-auth")
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("false")) {
			return m, nil
		}
		return m.Patch([]byte("false"), "params", "clientCapabilities", "_meta", "terminal-auth")
	}
	list, ok := m.Get("result", "authMethods")
	if !ok {
		return m, nil
	}
	var methods []json.RawMessage
	if err := json.Unmarshal(list, &methods); err != nil {
		// Not a list the IDE could run either; none is passed on.
		return m.Patch([]byte("[]"), "result", "authMethods")
	}
	kept := make([]json.RawMessage, 0, len(methods))
	for _, raw := range methods {
		if runsInTerminal(raw) {
			k.logger.Warn("removed a login method the IDE would run in a terminal: the bridge's manifest does not grant the terminal",
				"manifest", k.m.ID)
			continue
		}
		kept = append(kept, raw)
	}
	if len(kept) == len(methods) {
		return m, nil
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return nil, fmt.Errorf("masking login methods: %w", err)
	}
	return m.Patch(out, "result", "authMethods")
}

// runsInTerminal reports whether a login method is one the IDE runs in a
// terminal: of type "terminal", or with "terminal-auth" in its _meta. A
// method that is not an object, or whose type or _meta cannot be read, is
// taken to be one.
func runsInTerminal(raw json.RawMessage) bool {
	var am struct {
		Type json.RawMessage `json:"type"`
		Meta json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &am); err != nil || !isObject(raw) {
		return true
	}
	if len(am.Type) > 0 && !isNull(am.Type) {
		var t string
		if json.Unmarshal(am.Type, &t) != nil || t == "terminal" {
			return true
		}
	}
	if len(am.Meta) > 0 && !isNull(am.Meta) {
		var meta map[string]json.RawMessage
		if json.Unmarshal(am.Meta, &meta) != nil {
			return true
		}
		_, has := meta["terminal-auth"]
		return has
	}
	return false
}

// isNull reports whether raw is the JSON null.
func isNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }
