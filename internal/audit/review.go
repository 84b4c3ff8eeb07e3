package audit

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
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

// Filter selects entries. Zero fields match everything.
type Filter struct {
	Session  string
	Tool     string    // tool name, case-insensitive
	Decision string    // allow, deny, require-approval, escalate
	Since    time.Time // events at or after
}

// Match reports whether e passes every set field of f.
func (f Filter) Match(e *Entry) bool {
	switch {
	case f.Session != "" && e.Session != f.Session:
		return false
	case f.Tool != "" && !strings.EqualFold(e.Tool(), f.Tool):
		return false
	case f.Decision != "" && e.Decision() != f.Decision:
		return false
	case !f.Since.IsZero() && e.Time.Before(f.Since):
		return false
	}
	return true
}

// SessionSummary is one line of "acp-bridge audit sessions".
type SessionSummary struct {
	ID        string    `json:"session"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	Events    int       `json:"events"`
	Prompts   int       `json:"prompts"`
	ToolCalls int       `json:"toolCalls"`
	Denials   int       `json:"denials"`
	Approvals int       `json:"approvals"`
}

// Sessions summarizes entries by session, in order of first appearance.
// Tool calls are counted once per toolCallId; denials are events with
// decision deny; approvals are tool calls a person approved.
func Sessions(entries []Entry) []SessionSummary {
	var out []SessionSummary
	index := make(map[string]int)
	calls := make(map[string]map[string]bool)
	approved := make(map[string]map[string]bool)
	for i := range entries {
		e := &entries[i]
		if e.Session == "" {
			continue
		}
		k, ok := index[e.Session]
		if !ok {
			k = len(out)
			index[e.Session] = k
			out = append(out, SessionSummary{ID: e.Session, Start: e.Time})
			calls[e.Session] = make(map[string]bool)
			approved[e.Session] = make(map[string]bool)
		}
		s := &out[k]
		s.Events++
		s.End = e.Time
		if e.IsPrompt() {
			s.Prompts++
		}
		if e.Decision() == DecisionDeny {
			s.Denials++
		}
		if tc := e.ToolCall; tc != nil {
			id := cmp.Or(tc.ToolCallID, e.Subject.Ref, fmt.Sprint("#", e.Seq))
			calls[e.Session][id] = true
			if tc.Approval != "" && tc.Approval != "auto" {
				approved[e.Session][id] = true
			}
		}
	}
	for i := range out {
		out[i].ToolCalls = len(calls[out[i].ID])
		out[i].Approvals = len(approved[out[i].ID])
	}
	return out
}

// WriteSessions prints summaries as an aligned table.
func WriteSessions(w io.Writer, sessions []SessionSummary, loc *time.Location) error {
	rows := [][]string{{"SESSION", "START", "END", "EVENTS", "PROMPTS", "TOOL CALLS", "APPROVED", "DENIED"}}
	for _, s := range sessions {
		rows = append(rows, []string{s.ID, s.Start.In(loc).Format("2006-01-02 15:04:05Z07:00"), s.End.In(loc).Format("15:04:05Z07:00"),
			fmt.Sprint(s.Events), fmt.Sprint(s.Prompts), fmt.Sprint(s.ToolCalls), fmt.Sprint(s.Approvals), fmt.Sprint(s.Denials)})
	}
	return writeTable(w, rows, 3)
}

// writeTable writes rows with columns padded to their widest cell; columns
// from numeric on are right-aligned.
func writeTable(w io.Writer, rows [][]string, numeric int) error {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b bytes.Buffer
	for _, r := range rows {
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i >= numeric {
				b.WriteString(pad + c)
			} else if i < len(r)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// TimelineOptions configure WriteTimeline.
type TimelineOptions struct {
	// Location is the time zone of the TIME column. Optional; nil means
	// UTC.
	Location *time.Location
	// Width caps the DETAIL column. Optional; if zero, 64.
	Width int
	// Sessions summarize the sessions for the headings when entries were
	// filtered, so that a heading describes the whole session and says how
	// many of its events are shown. Optional; if nil, headings summarize
	// entries.
	Sessions []SessionSummary
}

// timelineHeader is the header row; the widths are fixed so that "show"
// and "tail -f" (which cannot know later rows) print the same columns.
const timelineFormat = "%-12s  %6s  %-20s  %-16s  %-22s  %-22s  %s\n"

// WriteTimelineHeader writes the column titles of a timeline.
func WriteTimelineHeader(w io.Writer) error {
	_, err := fmt.Fprintf(w, timelineFormat, "TIME", "SEQ", "ACTION", "DECISION", "POLICY", "BY", "DETAIL")
	return err
}

// WriteTimeline writes a readable timeline of entries: one row per event
// with its time, seq, action, policy decision and rule, who acted or
// approved, and a shortened detail (the prompt text; the tool with its
// arguments and its result or error; the subject). Rows stay in log
// order; each run of rows of one session starts with a heading that
// summarizes the whole session.
func WriteTimeline(w io.Writer, entries []Entry, opts TimelineOptions) error {
	sums := make(map[string]SessionSummary)
	shown := make(map[string]int)
	for _, s := range Sessions(entries) {
		sums[s.ID] = s
		shown[s.ID] = s.Events
	}
	for _, s := range opts.Sessions {
		if _, ok := sums[s.ID]; ok {
			sums[s.ID] = s
		}
	}
	seen := make(map[string]bool)
	session := "\x00"
	for i := range entries {
		e := &entries[i]
		if e.Session != session {
			session = e.Session
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := writeSessionHeading(w, session, sums[session], shown[session], seen[session], opts); err != nil {
				return err
			}
			seen[session] = true
			if err := WriteTimelineHeader(w); err != nil {
				return err
			}
		}
		if err := WriteTimelineRow(w, e, opts); err != nil {
			return err
		}
	}
	return nil
}

func writeSessionHeading(w io.Writer, id string, s SessionSummary, shown int, continued bool, opts TimelineOptions) error {
	var err error
	switch {
	case id == "":
		_, err = fmt.Fprintf(w, "bridge events (no session)\n")
	case continued:
		_, err = fmt.Fprintf(w, "session %s (continued)\n", id)
	default:
		loc := cmpLoc(opts.Location)
		filtered := ""
		if shown < s.Events {
			filtered = fmt.Sprintf(" (%d shown)", shown)
		}
		_, err = fmt.Fprintf(w, "session %s  %s → %s  %s%s, %s, %s, %d approved by a person, %d denied\n", id,
			s.Start.In(loc).Format("2006-01-02 15:04:05Z07:00"), s.End.In(loc).Format("15:04:05Z07:00"),
			plural(s.Events, "event"), filtered, plural(s.Prompts, "prompt"), plural(s.ToolCalls, "tool call"), s.Approvals, s.Denials)
	}
	return err
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func cmpLoc(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// WriteTimelineRow writes one event as a timeline row.
func WriteTimelineRow(w io.Writer, e *Entry, opts TimelineOptions) error {
	width := opts.Width
	if width <= 0 {
		width = 64
	}
	ts := e.TS
	if !e.Time.IsZero() {
		ts = e.Time.In(cmpLoc(opts.Location)).Format("15:04:05.000")
	}
	decision, rule := e.Decision(), e.PolicyRule
	if decision == "" {
		decision = "-"
	}
	if rule == "" {
		rule = "-"
	}
	_, err := fmt.Fprintf(w, timelineFormat, ts, fmt.Sprint(e.Seq), clip(e.Action, 20), decision, clip(rule, 22), clip(who(e), 22), clip(detail(e), width))
	return err
}

// who names whoever is accountable for the event: the approver of a tool
// call a person approved, "auto (policy)" for one the policy allowed, else
// the actor.
func who(e *Entry) string {
	if tc := e.ToolCall; tc != nil && tc.Approval != "" {
		if tc.Approval == "auto" {
			return "auto (policy)"
		}
		return "approved: " + tc.Approval
	}
	return e.Actor.ID
}

// detail is the DETAIL column: what the event is about, then why a
// policy refused or held it.
func detail(e *Entry) string {
	d := what(e)
	if e.Reason != "" && e.Decision() != "" && e.Decision() != DecisionAllow {
		d += " — " + oneLine(e.Reason)
	}
	return d
}

func what(e *Entry) string {
	if e.IsPrompt() {
		return strings.TrimSpace(`"` + oneLine(text(e.Input)) + `"`)
	}
	var parts []string
	if tc := e.ToolCall; tc != nil {
		if tc.Tool != "" {
			parts = append(parts, tc.Tool)
		}
		if a := text(tc.Arguments); a != "" {
			parts = append(parts, oneLine(a))
		} else if a := text(e.Input); a != "" {
			parts = append(parts, oneLine(a))
		}
		switch {
		case len(tc.Error) > 0:
			parts = append(parts, "✗ "+oneLine(text(tc.Error)))
		case len(tc.Result) > 0:
			parts = append(parts, "→ "+oneLine(text(tc.Result)))
		}
		return strings.Join(parts, " ")
	}
	if p := e.Subject.Path; p != "" {
		parts = append(parts, p)
	} else if r := e.Subject.Ref; r != "" && r != e.Session {
		parts = append(parts, e.Subject.Kind+" "+r)
	}
	if in := text(e.Input); in != "" {
		parts = append(parts, oneLine(in))
	}
	if out := text(e.Output); out != "" {
		parts = append(parts, "→ "+oneLine(out))
	}
	return strings.Join(parts, " ")
}

// text renders a JSON value for a person: a string as itself, an object
// holding one well-known field (command, path, value, ...) as that field,
// markers as [redacted: reason] and [truncated: N bytes], anything else
// as compact JSON.
func text(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	return textOf(v)
}

func textOf(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		if t, ok := contentText(v); ok {
			return t
		}
	case map[string]any:
		if r, ok := v["$redacted"].(bool); ok && r {
			return fmt.Sprintf("[redacted: %v]", v["reason"])
		}
		if t, ok := v["$truncated"].(bool); ok && t {
			return fmt.Sprintf("[truncated: %v bytes]", v["bytes"])
		}
		return fieldsText(v)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// leadKeys are members shown first and without their name: what a person
// most wants to see of a tool's arguments or an event's input.
var leadKeys = []string{"command", "cmd", "prompt", "text", "path", "file_path", "url", "value", "message"}

// fieldsText renders an object as its lead member (a command, a path, ...)
// or a "from → to" transition, then the other members as key=value, in
// key order.
func fieldsText(m map[string]any) string {
	var parts []string
	used := make(map[string]bool)
	if to, ok := m["to"]; ok {
		t := textOf(to)
		if from, ok := m["from"]; ok {
			t = textOf(from) + " → " + t
			used["from"] = true
		}
		parts, used["to"] = append(parts, t), true
	} else {
		for _, k := range leadKeys {
			if e, ok := m[k]; ok {
				parts, used[k] = append(parts, textOf(e)), true
				break
			}
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if !used[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		t := textOf(m[k])
		if strings.ContainsAny(t, " \t") {
			t = strconv.Quote(t)
		}
		parts = append(parts, k+"="+t)
	}
	return strings.Join(parts, " ")
}

// contentText renders ACP content blocks (a prompt): the text of text
// blocks, and [image], [audio] or [resource: uri] for the others.
func contentText(blocks []any) (string, bool) {
	var parts []string
	for _, b := range blocks {
		m, ok := b.(map[string]any)
		if !ok {
			return "", false
		}
		typ, _ := m["type"].(string)
		switch typ {
		case "text":
			parts = append(parts, textOf(m["text"]))
		case "resource_link":
			parts = append(parts, fmt.Sprintf("[link: %v]", m["uri"]))
		case "resource":
			uri := ""
			if r, ok := m["resource"].(map[string]any); ok {
				uri, _ = r["uri"].(string)
			}
			parts = append(parts, "[resource: "+uri+"]")
		case "":
			return "", false
		default:
			parts = append(parts, "["+typ+"]")
		}
	}
	return strings.Join(parts, " "), len(parts) > 0
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// clip cuts s to n runes, ending with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// FollowInterval is how often Follow looks for new lines.
const FollowInterval = 100 * time.Millisecond

// Follow calls fn for every complete line appended to path from offset on,
// until ctx is done, like tail -f. When the log rotates, it reads the
// rotated files it has not finished (in their numbered order) before the
// new file, so no event is skipped however fast the log rotates; events
// are passed on once, in seq order. It returns nil when ctx is done.
func Follow(ctx context.Context, path string, offset int64, fn func(Entry)) error {
	var f *os.File
	var fi os.FileInfo
	line := 0
	next := int64(-1) // lowest seq not yet passed on
	emit := func(e Entry) {
		line = e.Line
		if e.Seq >= next {
			next = e.Seq + 1
			fn(e)
		}
	}
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	read := func() error {
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			return err
		}
		n, err := readEntries(f, path, line, emit)
		offset += n
		return err
	}
	for {
		if f == nil {
			var err error
			f, err = os.Open(path)
			switch {
			case errors.Is(err, os.ErrNotExist):
				f = nil
			case err != nil:
				return err
			default:
				if fi, err = f.Stat(); err != nil {
					return err
				}
				if line, err = countLines(f, offset); err != nil {
					return err
				}
			}
		}
		if f != nil {
			if err := read(); err != nil {
				return err
			}
			now, err := os.Stat(path)
			switch {
			case err != nil:
				// Between a rename and the new file: wait.
			case os.SameFile(now, fi) && now.Size() < offset:
				// Cut shorter than what was read: start over.
				offset, line, next = 0, 0, -1
			case !os.SameFile(now, fi):
				// Rotated: finish this file, then every rotated file
				// after it, then the new active file.
				if err := read(); err != nil {
					return err
				}
				if err := followRotated(path, fi, emit); err != nil {
					return err
				}
				f.Close()
				f, offset = nil, 0
				continue
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(FollowInterval):
		}
	}
}

// followRotated reads the rotated files of path that come after the one
// that is done (all of them when done is not among them).
func followRotated(path string, done os.FileInfo, emit func(Entry)) error {
	rot, err := rotatedFiles(path)
	if err != nil {
		return err
	}
	start := 0
	for i, r := range rot {
		if fi, err := os.Stat(r.name); err == nil && os.SameFile(fi, done) {
			start = i + 1
		}
	}
	for _, r := range rot[start:] {
		f, err := os.Open(r.name)
		if err != nil {
			return err
		}
		_, err = readEntries(f, r.name, 0, emit)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// countLines counts the newlines in the first upto bytes of f.
func countLines(f *os.File, upto int64) (int, error) {
	if upto == 0 {
		return 0, nil
	}
	data := make([]byte, upto)
	if _, err := f.ReadAt(data, 0); err != nil {
		return 0, err
	}
	return bytes.Count(data, []byte("\n")), nil
}

// TailOffset returns the offset where the last n complete lines of path
// start, for Follow to show them first.
func TailOffset(path string, n int) (int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	idx := bytes.LastIndexByte(data, '\n') + 1
	for k := 0; k < n && idx > 0; k++ {
		idx = bytes.LastIndexByte(data[:idx-1], '\n') + 1
	}
	return int64(idx), nil
}
