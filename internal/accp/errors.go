package accp

import (
	"errors"
	"fmt"
)

// Code is an ACCP error code from the table in section 3.6 of the draft,
// such as "E1001".
type Code string

// The standard error codes of section 3.6.
const (
	CodeParse              Code = "E1001"
	CodeInvalidIntent      Code = "E1002"
	CodeUnknownSchema      Code = "E1003"
	CodeInvalidType        Code = "E1004"
	CodeRefNotFound        Code = "E2001"
	CodeRefExpired         Code = "E2002"
	CodeBudgetExceeded     Code = "E2003"
	CodeTimeout            Code = "E3001"
	CodeDuplicate          Code = "E3002"
	CodeSequenceGap        Code = "E3003"
	CodeToolNotFound       Code = "E4001"
	CodeToolExecFailed     Code = "E4002"
	CodeToolSchemaMismatch Code = "E4003"
	CodePolicyDenied       Code = "E5001"
	CodeUnauthorizedRef    Code = "E5002"
	CodeInternal           Code = "E9999"
)

type codeInfo struct {
	name      string
	retryable bool
}

var codeTable = map[Code]codeInfo{
	CodeParse:              {"PARSE_ERROR", false},
	CodeInvalidIntent:      {"INVALID_INTENT", false},
	CodeUnknownSchema:      {"UNKNOWN_SCHEMA", false},
	CodeInvalidType:        {"INVALID_TYPE", false},
	CodeRefNotFound:        {"REF_NOT_FOUND", false},
	CodeRefExpired:         {"REF_EXPIRED", false},
	CodeBudgetExceeded:     {"BUDGET_EXCEEDED", false},
	CodeTimeout:            {"TIMEOUT", true},
	CodeDuplicate:          {"DUPLICATE", false},
	CodeSequenceGap:        {"SEQUENCE_GAP", true},
	CodeToolNotFound:       {"TOOL_NOT_FOUND", false},
	CodeToolExecFailed:     {"TOOL_EXEC_FAILED", true},
	CodeToolSchemaMismatch: {"TOOL_SCHEMA_MISMATCH", false},
	CodePolicyDenied:       {"POLICY_DENIED", false},
	CodeUnauthorizedRef:    {"UNAUTHORIZED_REF", false},
	CodeInternal:           {"INTERNAL_ERROR", true},
}

// Codes returns every standard error code of section 3.6 in ascending order.
func Codes() []Code {
	return []Code{CodeParse, CodeInvalidIntent, CodeUnknownSchema, CodeInvalidType,
		CodeRefNotFound, CodeRefExpired, CodeBudgetExceeded,
		CodeTimeout, CodeDuplicate, CodeSequenceGap,
		CodeToolNotFound, CodeToolExecFailed, CodeToolSchemaMismatch,
		CodePolicyDenied, CodeUnauthorizedRef, CodeInternal}
}

// Name returns the code's symbolic name, such as "PARSE_ERROR", or "" for a
// code outside the standard table.
func (c Code) Name() string { return codeTable[c].name }

// Retryable reports whether the draft marks the code as retryable.
func (c Code) Retryable() bool { return codeTable[c].retryable }

// Known reports whether c is one of the standard codes.
func (c Code) Known() bool { _, ok := codeTable[c]; return ok }

// Error is an ACCP protocol error: a code from section 3.6, a message, and
// for parse errors the byte offset in the frame where the problem was found
// (-1 when it has no position).
type Error struct {
	Code   Code
	Offset int
	Msg    string
}

// Error renders the error as "E1001 PARSE_ERROR at byte 7: message".
func (e *Error) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("%s %s at byte %d: %s", e.Code, e.Code.Name(), e.Offset, e.Msg)
	}
	return fmt.Sprintf("%s %s: %s", e.Code, e.Code.Name(), e.Msg)
}

// Is reports whether target is an *Error with the same code, so callers can
// write errors.Is(err, &accp.Error{Code: accp.CodeDuplicate}).
func (e *Error) Is(target error) bool {
	var t *Error
	if errors.As(target, &t) {
		return t.Code == e.Code
	}
	return false
}

// CodeOf returns the ACCP code carried by err, CodeInternal for any other
// non-nil error, and "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

func errorf(code Code, off int, format string, args ...any) *Error {
	return &Error{Code: code, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// ErrorFrame builds the standard error frame of section 3.6 (intent "fail",
// operation "error", schema "ER") reporting err from agent. The envelope is
// left for the caller (or a Session) to fill.
func ErrorFrame(agent string, err error) *Frame {
	code := CodeOf(err)
	msg := err.Error()
	var e *Error
	if errors.As(err, &e) {
		msg = e.Msg
		if e.Offset >= 0 {
			msg = fmt.Sprintf("at byte %d: %s", e.Offset, e.Msg)
		}
	}
	return &Frame{
		Agent:  agent,
		Intent: "fail",
		Op:     "error",
		Params: []Field{
			{"code", String(string(code))},
			{"msg", String(msg)},
			{"retry", Bool(code.Retryable())},
			{"schema", String("ER")},
		},
	}
}
