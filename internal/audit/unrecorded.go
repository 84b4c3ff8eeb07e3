package audit

import (
	"errors"
	"fmt"
)

// An event that cannot be written as a record (a value encoding/json
// cannot encode, a number out of a double's range in a tool's output, an
// empty actor) is refused with ErrInvalidEvent. Refused quietly, it would
// leave a hole in the log where a decision was: an agent that can make
// its tool's output unencodable could then keep its calls out of the
// review. So the Log writes an "audit.unrecorded" record in its place,
// with what it can say about the event (action, actor, subject, policy
// decision, session, tool call id, why it failed), and logs the failure.

// ActionUnrecorded is the action of the record a Log writes in place of
// an event it could not encode.
const ActionUnrecorded = "audit.unrecorded"

// appendUnrecorded appends, in place of ev, the record that says it
// could not be written because of cause (an ErrInvalidEvent), fsynced
// when sync is set. It returns cause once that record is accepted. When
// that record is kept out too, the error it returns does not wrap
// ErrInvalidEvent: nothing of the event is in the log, and a caller that
// fails closed on a log it cannot write must do so.
func (l *Log) appendUnrecorded(ev *Event, cause error, sync bool) error {
	if !errors.Is(cause, ErrInvalidEvent) || ev.Action == ActionUnrecorded {
		return cause
	}
	sub := unrecordedEvent(ev, cause, l.opts.Actor)
	l.log.Error("audit log: an event could not be encoded; an audit.unrecorded record takes its place",
		"action", ev.Action, "subject", ev.Subject.Kind, "ref", ev.Subject.Ref, "err", cause)
	p, err := l.prepare(&sub)
	if err != nil {
		return fmt.Errorf("audit log: %v, and its audit.unrecorded record could not be made: %v", cause, err)
	}
	l.mu.Lock()
	seq, err := l.appendLocked(p)
	l.mu.Unlock()
	if err == nil && sync {
		err = l.syncTo(seq)
	}
	if err != nil {
		return fmt.Errorf("audit log: %v, and its audit.unrecorded record could not be written: %w", cause, err)
	}
	return cause
}

// unrecordedEvent is the record that stands for ev, which failed with
// cause: every part of ev that is valid on its own, and none of its
// input, output or metadata values beyond plain strings.
func unrecordedEvent(ev *Event, cause error, self Actor) Event {
	in := map[string]any{"action": shorten(ev.Action, 128), "error": shorten(cause.Error(), 1024)}
	out := Event{Actor: ev.Actor, Action: ActionUnrecorded, Subject: ev.Subject, Input: in}
	if out.Actor.ID == "" || len(out.Actor.ID) > 256 || len(out.Actor.Role) > 64 {
		out.Actor = self
	}
	if out.Subject.Kind == "" || len(out.Subject.Kind) > 32 {
		in["subjectKind"] = shorten(out.Subject.Kind, 64)
		out.Subject.Kind = "event"
	}
	if p := ev.Policy; p != nil {
		if (&Event{Actor: self, Action: ActionUnrecorded, Subject: out.Subject, Policy: p}).check() == nil {
			out.Policy = p
		} else {
			in["policy"] = map[string]any{"ref": shorten(p.Ref, 256), "decision": shorten(p.Decision, 64)}
		}
	}
	md := map[string]any{}
	for _, k := range [...]string{"session", "rule", "status"} {
		if s, ok := ev.Metadata[k].(string); ok {
			md[k] = s
		}
	}
	var id string
	switch tc := ev.Metadata["toolCall"].(type) {
	case ToolCall:
		id = tc.ToolCallID
	case *ToolCall:
		if tc != nil {
			id = tc.ToolCallID
		}
	case map[string]any:
		id, _ = tc["toolCallId"].(string)
	}
	if id != "" {
		md["toolCallId"] = id
	}
	if len(md) > 0 {
		out.Metadata = md
	}
	return out
}
