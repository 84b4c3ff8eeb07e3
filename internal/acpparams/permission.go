package acpparams

import "encoding/json"

// PermissionRequest is a session/request_permission request's params, the
// toolCall left raw for ReadToolCall.
type PermissionRequest struct {
	SessionID string             `json:"sessionId"`
	ToolCall  json.RawMessage    `json:"toolCall"`
	Options   []PermissionOption `json:"options"`
}

// PermissionOption is one answer a permission request offers the person.
type PermissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	// Kind is "allow_once", "allow_always", "reject_once" or
	// "reject_always".
	Kind string `json:"kind"`
}

// PermissionResponse is a session/request_permission response's result.
type PermissionResponse struct {
	Outcome PermissionOutcome `json:"outcome"`
}

// PermissionOutcome is what the person answered: Outcome "selected" with
// the OptionID they chose, or "cancelled" (the turn was cancelled before
// they chose).
type PermissionOutcome struct {
	Outcome  string `json:"outcome"`
	OptionID string `json:"optionId,omitempty"`
}

// Selected returns the result of a permission request answered with
// optionID.
func Selected(optionID string) json.RawMessage {
	b, _ := json.Marshal(PermissionResponse{Outcome: PermissionOutcome{Outcome: "selected", OptionID: optionID}})
	return b
}

// Cancelled returns the result of a permission request the turn's
// cancellation answered.
func Cancelled() json.RawMessage {
	return json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`)
}
