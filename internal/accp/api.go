package accp

import "fmt"

// The codec interface of section 7.1 as functions over a Session. The
// methods on Session are the same operations; these exist so code can read
// like the draft.

// Encode encodes message into a frame (or a frame sequence when it must be
// split to fit the budget) within session.
func Encode(message Message, session *Session) ([]string, error) { return session.Encode(message) }

// Decode decodes one frame within session; see Session.Decode.
func Decode(frame string, session *Session) (*Message, error) { return session.Decode(frame) }

// Checkpoint triggers a compression checkpoint in session.
func Checkpoint(session *Session) CheckpointResult { return session.Checkpoint() }

// GetBudget returns session's current token budget use.
func GetBudget(session *Session) TokenBudget { return session.GetBudget() }

// RegisterSchema registers a custom schema in reg under name.
func RegisterSchema(reg *Registry, name string, schema Schema) error {
	return reg.RegisterSchema(name, schema)
}

// NewMessage builds a message from full-named fields.
func NewMessage(from, intent, op string, fields ...Field) Message {
	return Message{From: from, Intent: intent, Op: op, Fields: fields}
}

// FieldsFromJSON converts a JSON object (encoding/json form with UseNumber)
// into fields sorted by key, for building a Message from JSON data.
func FieldsFromJSON(obj map[string]any) ([]Field, error) {
	v, err := FromJSON(obj)
	if err != nil {
		return nil, err
	}
	return v.Fields, nil
}

// MessageFromJSON builds a message whose fields are the members of a JSON
// object (encoding/json form with UseNumber, or plain Go maps, slices,
// strings, bools, ints and float64s), for storing structured data such as a
// session summary as frames.
func MessageFromJSON(from, intent, op string, obj map[string]any) (Message, error) {
	fields, err := FieldsFromJSON(obj)
	if err != nil {
		return Message{}, fmt.Errorf("building %s:%s message: %v", intent, op, err)
	}
	return Message{From: from, Intent: intent, Op: op, Fields: fields}, nil
}
