package audit

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
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
}

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
// (as Verify orders them), without verifying them: call Verify for that. A
// line that is not an event is skipped; a torn last line is ignored.
func ReadEntries(files ...string) ([]Entry, error) {
	ordered, err := chainOrder(files)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, name := range ordered {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		_, err = readEntries(f, name, 0, func(e Entry) { out = append(out, e) })
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readEntries calls fn for each complete line of r, numbering lines from
// line+1, and returns how many bytes of complete lines it consumed.
func readEntries(r io.Reader, name string, line int, fn func(Entry)) (int64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var n int64
	for {
		raw, err := br.ReadBytes('\n')
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

// parseEntry decodes one line for review.
func parseEntry(raw []byte) (Entry, bool) {
	e := Entry{Raw: raw}
	if err := json.Unmarshal(raw, &e.Record); err != nil || e.Doctype != Doctype {
		return e, false
	}
	e.Time, _ = time.Parse(time.RFC3339Nano, e.TS)
	var meta struct {
		Session    string          `json:"session"`
		ToolCall   *ToolCallRecord `json:"toolCall"`
		PolicyRule string          `json:"policyRule"`
		Rule       string          `json:"rule"`
		Reason     string          `json:"reason"`
	}
	if e.Metadata != nil {
		json.Unmarshal(e.Metadata, &meta)
	}
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
	return e, true
}

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
