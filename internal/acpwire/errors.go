package acpwire

import (
	"encoding/json"
	"errors"
	"fmt"
)

// JSON-RPC and ACP error codes.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeRequestCancelled = -32800
	CodeAuthRequired     = -32000
	CodeResourceNotFound = -32002
)

// Error is a JSON-RPC error object. It implements error; errors.Is compares
// codes, so errors.Is(err, &Error{Code: CodeMethodNotFound}) matches any
// method-not-found error.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns the message with its code.
func (e *Error) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	var t *Error
	return errors.As(target, &t) && t.Code == e.Code
}

// Errorf returns an *Error with code and a formatted message.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithData returns a copy of e carrying data, marshalled as JSON.
func (e *Error) WithData(data any) *Error {
	b, err := json.Marshal(data)
	if err != nil {
		return e
	}
	c := *e
	c.Data = b
	return &c
}
