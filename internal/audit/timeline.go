package audit

import (
	"fmt"
	"io"
	"strings"
	"time"
)

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
