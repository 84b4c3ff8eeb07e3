package audit

import (
	"bytes"
	"errors"
)

// A tool's output arrives in a message whose bytes are read into a
// buffer the bridge reuses. Recorded as a ToolOutput, it had to be copied
// (tens of KiB, for a record that keeps digests of it) so that it could
// wait in a queue, then read when its record was prepared, the copy kept
// again for the next record (lastOutput). ReadToolOutput reads it while
// the message is still there, into what the record will hold: the copy,
// and the garbage it makes, are gone, and the output is read once however
// many records carry it.

// ReadOutput is a tool's output read already by the Log that records it
// (Log.ReadToolOutput): its redacted canonical form, as Options.Content
// says. It holds nothing of the bytes it was read from. It is taken as
// Event.Output and as the Result or Error of the mirror
// (metadata["toolCall"] as a ToolCall), where it is written exactly as the
// ToolOutput of the same bytes would be; anywhere else, or given to
// another Log, it makes the event invalid (ErrInvalidEvent). It may be
// given to any number of events, from any goroutine.
type ReadOutput struct {
	log *Log
	st  *sharedTree // its canon made: never changed afterwards
}

// Len returns the size of the canonical form r holds, in bytes: what it
// keeps in memory, give or take a constant.
func (r *ReadOutput) Len() int { return len(r.st.canon) }

// ReadToolOutput reads a tool's output raw (the JSON of a tool call's
// content or rawOutput) as l stores it, and returns what to give in its
// place as Event.Output or as the mirror's Result or Error: a *ReadOutput,
// so that raw may be reused as soon as ReadToolOutput returns. It returns
// nil when raw is empty, and a copy of raw as a ToolOutput when raw cannot
// be read, so that the event carrying it is refused as it would have
// been. It is safe for concurrent use.
func (l *Log) ReadToolOutput(raw []byte) any { return l.readToolOutput(raw, false) }

// ReadValidToolOutput is ReadToolOutput for raw known to be exactly one
// valid JSON value (RFC 8259): a slice of a message the bridge read
// strictly. Its strings, most of a tool's output, are not checked again,
// only their ends found; for valid JSON it returns the reading
// ReadToolOutput returns (FuzzReadValidToolOutput). Given bytes that are
// not valid JSON, it may return a reading where ReadToolOutput returns a
// copy to be refused. It is safe for concurrent use.
func (l *Log) ReadValidToolOutput(raw []byte) any { return l.readToolOutput(raw, true) }

// readToolOutput is ReadToolOutput, or ReadValidToolOutput when valid.
func (l *Log) readToolOutput(raw []byte, valid bool) any {
	if len(raw) == 0 {
		return nil
	}
	// Not outputTree: keeping the bytes for the next record is a copy
	// of them, which the callers share a *ReadOutput instead.
	st, err := l.readOutput(raw, valid)
	if err != nil || st.canon == nil {
		return ToolOutput(bytes.Clone(raw))
	}
	return &ReadOutput{log: l, st: st}
}

// errOtherLog is why a *ReadOutput made by another Log is refused: it
// was read with that Log's options.
var errOtherLog = errors.New("a tool output read by another audit log")

// readBy returns the tree of r for a record of l.
func (l *Log) readBy(r *ReadOutput) (*sharedTree, error) {
	if r == nil || r.log != l || r.st == nil {
		return nil, errOtherLog
	}
	return r.st, nil
}
