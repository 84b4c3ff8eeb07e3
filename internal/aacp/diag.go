package aacp

import (
	"fmt"
	"strings"
)

// Severity says whether a Diagnostic rejects a packet.
type Severity int

const (
	// Warning is advisory: the packet is still valid and may be transmitted
	// (draft section 7: warnings "MUST NOT prevent transmission").
	Warning Severity = iota + 1
	// Error rejects the packet: it must not be transmitted or acted on.
	Error
)

// String returns "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// Code identifies a kind of Diagnostic. Codes starting with 'E' are errors,
// codes starting with 'W' are warnings; a code never changes meaning.
type Code string

// Error codes: a packet with any of these is rejected.
const (
	CodeEmptyPacket     Code = "E001" // the packet is empty
	CodeMissingTask     Code = "E002" // field 0 is empty or is a named field
	CodeMalformedTask   Code = "E003" // field 0 is not an upper-case token
	CodeMissingDomain   Code = "E004" // field 1 is absent, empty or a named field
	CodeMalformedDomain Code = "E005" // field 1 is not an upper-case token
	CodeEmptyField      Code = "E006" // an empty slot: "||" or a trailing "|"
	CodeNotNamed        Code = "E007" // a field after DOM has no ':'
	CodeInvalidKey      Code = "E008" // a key is empty or has characters outside [A-Za-z0-9_.-]
	CodeDuplicateKey    Code = "E009" // a key appears twice
	CodeInvalidEscape   Code = "E010" // a '\' not followed by '\', '|' or ':'
	CodeMissingReturn   Code = "E011" // no return: field
	CodeEmptyReturn     Code = "E012" // return: has an empty value
	CodeMissingVersion  Code = "E013" // no aacp: field
	CodeEmptyVersion    Code = "E014" // aacp: has an empty value
	CodeTooLarge        Code = "E015" // the packet exceeds MaxPacketBytes or MaxFields
	CodeInvalidChar     Code = "E016" // a control character or invalid UTF-8
)

// Warning codes: advisory only, the packet stays valid.
const (
	CodeUnknownTask     Code = "W001" // TASK is well formed but not defined by v1.1
	CodeUnknownDomain   Code = "W002" // DOM is well formed but not defined by v1.1
	CodeMissingPriority Code = "W003" // no p: field
	CodeInvalidPriority Code = "W004" // p: is not 1, 2 or 3
	CodeVersionMismatch Code = "W005" // aacp: is not "1.1"
	CodeUnknownKey      Code = "W006" // a key not defined by the draft
	CodeSentimentNoTone Code = "W007" // sentiment: without tone:
	CodeLTVNoCurrency   Code = "W008" // ltv: without ccy:
	CodeEmptyValue      Code = "W009" // a named field other than return:/aacp: has an empty value
)

// Severity returns the severity a code denotes: Error for 'E' codes, Warning
// otherwise.
func (c Code) Severity() Severity {
	if strings.HasPrefix(string(c), "E") {
		return Error
	}
	return Warning
}

// A Diagnostic is one problem found in a packet.
type Diagnostic struct {
	Code Code
	// Field names the field concerned: "TASK", "DOM", a key such as "return",
	// or "" for the packet as a whole.
	Field string
	// Column is the 1-based byte column in the packet text the problem points
	// at. Problems about something missing point at the start of the packet
	// (column 1), except a missing DOM, which points just after TASK.
	Column  int
	Message string
}

// Severity returns d.Code.Severity().
func (d Diagnostic) Severity() Severity { return d.Code.Severity() }

// String formats d as "col: code: message", the tail of the CLI's
// "file:line:col: code: message" form.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%d: %s: %s", d.Column, d.Code, d.Message)
}

// Diagnostics is the list of problems found in one packet, in column order.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error, that is, whether the
// packet is rejected.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity() == Error {
			return true
		}
	}
	return false
}

// Err returns nil when ds holds no error, and otherwise an error listing every
// error-severity diagnostic (warnings are left out).
func (ds Diagnostics) Err() error {
	var errs []string
	for _, d := range ds {
		if d.Severity() == Error {
			errs = append(errs, "column "+d.String())
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return &PacketError{Diagnostics: ds, msg: strings.Join(errs, "; ")}
}

// PacketError is the error Diagnostics.Err returns for a rejected packet. It
// keeps all diagnostics, warnings included, for callers that want them.
type PacketError struct {
	Diagnostics Diagnostics
	msg         string
}

// Error lists the error-severity diagnostics.
func (e *PacketError) Error() string { return "invalid AACP packet: " + e.msg }

// Format renders d in the form compilers use, "file:line:col: code: message",
// for the packet on the given line of the named file.
func (d Diagnostic) Format(file string, line int) string {
	return fmt.Sprintf("%s:%d:%s", file, line, d.String())
}
