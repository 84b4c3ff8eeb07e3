package hostile

import (
	"encoding/json"
	acp "github.com/coder/acp-go-sdk"
	"slices"
)

// shownCall is what the IDE keeps of a tool call to show it: its title,
// kind and rawInput, as the latest update that carried each left them.
type shownCall struct {
	ID       string
	Title    string
	Kind     string
	RawInput json.RawMessage
}

// acpToolKinds are the kinds ACP defines for a tool call.
var acpToolKinds = []string{"read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"}

// callFields reads the fields of a tool call (a session/update's update,
// or a permission request's toolCall) as the variant's client reads them.
// The TypeScript SDK reads kind with defaultOnError(zToolKind) and Zed's
// Rust schema with serde_with's DefaultOnError: a kind ACP does not define
// ("EXECUTE", "Execute ") is no kind at all, so the update leaves the
// call's kind as it was. acp-go-sdk keeps any string.
func (ide *executingIDE) callFields(raw json.RawMessage) (c shownCall, has map[string]bool, ok bool) {
	var fields map[string]json.RawMessage
	if ide.rd.params(raw, &fields) != nil {
		return c, nil, false
	}
	has = map[string]bool{}
	str := func(name string, into *string) {
		if v, ok := fields[name]; ok && ide.rd.params(v, into) == nil && string(v) != "null" {
			has[name] = true
		}
	}
	str("toolCallId", &c.ID)
	str("title", &c.Title)
	str("kind", &c.Kind)
	if has["kind"] && ide.cfg.Variant != "go" && !slices.Contains(acpToolKinds, c.Kind) {
		c.Kind, has["kind"] = "", false
	}
	if v, ok := fields["rawInput"]; ok {
		c.RawInput, has["rawInput"] = v, true
	}
	return c, has, true
}

// goSDKToolCall reports whether acp-go-sdk's client reads a session/update
// as a tool call: its SessionUpdate reads a sessionUpdate it does not name
// (null, "TOOL_CALL_UPDATE", a newer variant, none) by the members the
// update holds, so a toolCallId and a title make a tool_call.
func goSDKToolCall(params json.RawMessage) bool {
	var n acp.SessionNotification
	if json.Unmarshal(params, &n) != nil {
		return false
	}
	return n.Update.ToolCall != nil || n.Update.ToolCallUpdate != nil
}

// keepCall takes in a tool_call or tool_call_update notification. The go
// variant drops one acp-go-sdk cannot decode into its types (a "_meta"
// that is no object, a location's "line" that is no integer), as the
// SDK's client does before its handler sees it.
func (ide *executingIDE) keepCall(params json.RawMessage) {
	var p struct {
		Update json.RawMessage `json:"update"`
	}
	if ide.rd.params(params, &p) != nil {
		return
	}
	if ide.cfg.Variant == "go" && json.Unmarshal(params, new(acp.SessionNotification)) != nil {
		return
	}
	if _, ok := ide.mergedCall(p.Update); !ok {
		return
	}
}

// mergedCall applies a tool call update to the call kept under its id,
// keeps the result and returns it.
func (ide *executingIDE) mergedCall(raw json.RawMessage) (shownCall, bool) {
	u, has, ok := ide.callFields(raw)
	if !ok {
		return shownCall{}, false
	}
	ide.mu.Lock()
	defer ide.mu.Unlock()
	c := ide.calls[u.ID]
	c.ID = u.ID
	if has["title"] {
		c.Title = u.Title
	}
	if has["kind"] {
		c.Kind = u.Kind
	}
	if has["rawInput"] {
		c.RawInput = u.RawInput
	}
	ide.calls[u.ID] = c
	return c, true
}
