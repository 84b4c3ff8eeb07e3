package audit

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// Entry is a record read back for review, with where it was found and the
// parts the review tools use already decoded.
type Entry struct {
	Record
	// File and Line locate the record (1-based line).
	File string
	Line int
	// Raw is the line as written, without its newline.
	Raw []byte
	// Session is the ACP session the event belongs to: metadata.session,
	// else the tool-call mirror's session, else the subject's ref when the
	// subject is a session. Empty for bridge-wide events.
	Session string
	// ToolCall is the AIP-44 tool-call mirror, when the event has one.
	ToolCall *ToolCallRecord
	// Time is the parsed ts (zero if it does not parse).
	Time time.Time
	// PolicyRule is the policy as a person wrote it: metadata.policyRule
	// (set when the ref had to be turned into a slug), else metadata.rule,
	// else policy.ref.
	PolicyRule string
	// Reason is metadata.reason of an event with a policy decision: why
	// the policy decided so.
	Reason string
	// Unchained says why the record is not vouched for by the chain, as
	// the timeline writes it under the row: set by Follow on a line that
	// does not continue the chain of the lines it passed on before, and
	// by a review on the records from where the log stops verifying.
	Unchained string
	// Refused says who refused what an approval.recorded record asked
	// about (see refusalOf): RefusedByPerson, RefusedByBridge, or "" when
	// it was approved or the record is not an answer.
	Refused string
	// Approved is true when the person approved what an approval.recorded
	// record asked about (see answerOf).
	Approved bool
}

// Who refused a request for approval (Entry.Refused).
const (
	// RefusedByPerson: the person answered no (rejected or dismissed it).
	RefusedByPerson = "person"
	// RefusedByBridge: the bridge refused it for them: the call changed
	// after they approved it, their answer could not be given for this
	// call alone, or the question could not be asked.
	RefusedByBridge = "bridge"
)

// ToolCallRecord is the AIP-44 tool-call mirror as read back.
type ToolCallRecord struct {
	Kind       string          `json:"kind"`
	Operator   string          `json:"operator,omitempty"`
	Session    string          `json:"session,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	Tool       string          `json:"tool,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      json.RawMessage `json:"error,omitempty"`
	Approval   string          `json:"approval,omitempty"`
}

// ReadEntries reads every complete line of files, taken in chain order
// (as Verify orders them). A line that is not an event is skipped; a torn
// last line is ignored; a file whose first line is not an event fails with
// ErrNotAuditLog. Use Review to verify the files in the same pass.
func ReadEntries(files ...string) ([]Entry, error) {
	r, err := Review(Inputs(files...)...)
	if err != nil {
		return nil, err
	}
	return r.Entries, nil
}

// Reviewed is what Review read.
type Reviewed struct {
	// Entries are the events, in chain order.
	Entries []Entry
	// Summary describes the chain as far as it verified.
	Summary *Summary
	// Problem is the first reason the inputs do not verify as one chain
	// (usually a *Problem), or nil when they do. A review that shows
	// entries despite a Problem must say so.
	Problem error
}

// Review reads inputs once each, in chain order, verifying them as Verify
// does and decoding their events for review, so that standard input can be
// both checked and shown. It fails with ErrNotAuditLog when an input does
// not start with an audit event.
func Review(inputs ...Input) (*Reviewed, error) {
	ordered, err := openAll(inputs)
	if err != nil {
		return nil, err
	}
	defer ordered.closeAll()
	rv := &Reviewed{Summary: &Summary{FirstSeq: -1, LastSeq: -1}}
	for _, o := range ordered {
		rv.Summary.Files = append(rv.Summary.Files, o.name)
		if err := notAuditLog(o.name, o.first); err != nil {
			return nil, err
		}
	}
	c := &Checker{}
	for i, o := range ordered {
		r, err := o.reader()
		if err != nil {
			return nil, err
		}
		br := bufio.NewReaderSize(r, 64<<10)
		for n := 1; ; n++ {
			raw, err := readLine(br)
			if err == errLineTooLong {
				if rv.Problem == nil {
					rv.Problem = &Problem{File: o.name, Line: n, Err: err}
				}
				break
			}
			if err == io.EOF {
				if len(raw) > 0 && rv.Problem == nil {
					rv.Problem = tornProblem(o.name, n, len(raw), i == len(ordered)-1)
				}
				break
			}
			if err != nil {
				return nil, fmt.Errorf("reading %s: %v", o.name, err)
			}
			line := raw[:len(raw)-1]
			if rv.Problem == nil {
				if _, err := c.Check(line); err != nil {
					rv.Problem = &Problem{File: o.name, Line: n, Err: err}
				}
			}
			if e, ok := parseEntry(line); ok {
				e.File, e.Line = o.name, n
				rv.Entries = append(rv.Entries, e)
			}
		}
	}
	if c.records > 0 {
		s := rv.Summary
		s.Records, s.FirstSeq, s.LastSeq, s.Genesis, s.Head = c.records, c.first, c.next-1, c.genesis, c.prev
	}
	return rv, nil
}

// readEntries calls fn for each complete line of r, numbering lines from
// line+1, and returns how many bytes of complete lines it consumed.
func readEntries(r io.Reader, name string, line int, fn func(Entry)) (int64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var n int64
	for {
		raw, err := readLine(br)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("reading %s: %v", name, err)
		}
		n += int64(len(raw))
		line++
		if e, ok := parseEntry(raw[:len(raw)-1]); ok {
			e.File, e.Line = name, line
			fn(e)
		}
	}
}

// ParseEntry decodes one line (without its newline) for review, as Review
// does, without verifying it; ok is false when the line is not an event.
// File and Line are left for the caller to set.
func ParseEntry(line []byte) (e Entry, ok bool) { return parseEntry(line) }

// parseEntry decodes one line for review.
func parseEntry(raw []byte) (Entry, bool) {
	e := Entry{Raw: raw}
	if err := json.Unmarshal(raw, &e.Record); err != nil || e.Doctype != Doctype {
		return e, false
	}
	e.finish()
	return e, true
}

// finish sets what an entry derives from its decoded record.
func (e *Entry) finish() { e.derive(jsonMeta(e.Metadata), e.Output) }

// entryMeta is what an entry derives from its record's metadata.
type entryMeta struct {
	Session    string          `json:"session"`
	ToolCall   *ToolCallRecord `json:"toolCall"`
	PolicyRule string          `json:"policyRule"`
	Rule       string          `json:"rule"`
	Reason     string          `json:"reason"`
	// Approved is the answer of an approval.recorded record to a
	// permission request the agent sent.
	Approved *bool `json:"approved"`
}

// jsonMeta decodes metadata with encoding/json, keeping what decodes (a
// member of the wrong type is left out).
func jsonMeta(metadata json.RawMessage) entryMeta {
	var meta entryMeta
	if metadata != nil {
		json.Unmarshal(metadata, &meta)
	}
	return meta
}

// derive sets what an entry derives from its decoded record, meta and
// its output.
func (e *Entry) derive(meta entryMeta, output json.RawMessage) {
	if e.Action == "approval.recorded" {
		e.Approved, e.Refused = answerOf(meta.Approved, output)
	}
	e.Time, _ = time.Parse(time.RFC3339Nano, e.TS)
	e.ToolCall = meta.ToolCall
	if e.Policy != nil {
		e.PolicyRule = cmp.Or(meta.PolicyRule, meta.Rule, e.Policy.Ref)
		e.Reason = meta.Reason
	}
	switch {
	case meta.Session != "":
		e.Session = meta.Session
	case meta.ToolCall != nil && meta.ToolCall.Session != "":
		e.Session = meta.ToolCall.Session
	case e.Subject.Kind == "session":
		e.Session = e.Subject.Ref
	}
}

// answerOf says whether the person approved the request an
// approval.recorded record answers, or who refused it: its
// metadata.approved (the answer to a permission request the agent sent)
// or its output's approved (the answer to a question of the bridge's own,
// for a file write or a terminal). Not approved, the output says whether
// the bridge refused it for the person: "stale" (the call changed after
// they approved it), "unanswerable" (their answer could not be given for
// this call alone) or "error" (the question could not be asked). Only
// these records decide: text the agent wrote elsewhere in the record does
// not.
func answerOf(approved *bool, output json.RawMessage) (approvedByPerson bool, refused string) {
	var out struct {
		Approved     *bool           `json:"approved"`
		Stale        json.RawMessage `json:"stale"`
		Unanswerable json.RawMessage `json:"unanswerable"`
		Error        json.RawMessage `json:"error"`
	}
	if len(output) > 0 {
		json.Unmarshal(output, &out)
	}
	if approved == nil {
		approved = out.Approved
	}
	switch {
	case approved == nil:
		return false, ""
	case *approved:
		return true, ""
	case given(out.Stale) || given(out.Unanswerable) || given(out.Error):
		return false, RefusedByBridge
	}
	return false, RefusedByPerson
}

// given reports whether a member was written with a value other than null.
func given(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }

// Decision returns the event's policy decision, or "".
func (e *Entry) Decision() string {
	if e.Policy == nil {
		return ""
	}
	return e.Policy.Decision
}

// IsPrompt reports whether the event records a user prompt (action
// session.prompt, or any action ending in ".prompt").
func (e *Entry) IsPrompt() bool {
	return e.Action == "prompt" || strings.HasSuffix(e.Action, ".prompt")
}

// Tool returns the tool the event is about: the mirror's tool name, or "".
func (e *Entry) Tool() string {
	if e.ToolCall == nil {
		return ""
	}
	return e.ToolCall.Tool
}
