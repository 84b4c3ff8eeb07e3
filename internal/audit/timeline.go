package audit

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// TimelineOptions configure WriteTimeline and Timeline.
type TimelineOptions struct {
	// Location is the time zone of the TIME column. Optional; nil means
	// UTC.
	Location *time.Location
	// Width caps the DETAIL column. Optional; if zero, 64.
	Width int
	// Wide prints POLICY and BY whole on one line (as wide as their
	// longest cell in WriteTimeline) and DETAIL uncut. By default POLICY
	// and BY wrap onto the following lines and DETAIL is cut to Width.
	Wide bool
	// Color writes decisions in colour (ANSI escapes: deny red,
	// require-approval and escalate yellow, allow green) and tamper and
	// repair records in red. The colour comes from the decision, one of
	// four known values, never from text in the log. The caller decides:
	// a terminal, and NO_COLOR unset.
	Color bool
	// All shows lifecycle records too (see Entry.IsLifecycle); by default
	// they are hidden and headings say how many events are shown.
	All bool
	// Sessions summarize the sessions for the headings when entries were
	// filtered, so that a heading describes the whole session and says how
	// many of its events are shown. Optional; if nil, headings summarize
	// entries.
	Sessions []SessionSummary
	// Runs describe the runs for the run headings and agent names when
	// entries were filtered. Optional; if nil, taken from entries.
	Runs []RunInfo
}

// Fixed column widths, so that "show" and "tail -f" (which cannot know
// later rows) print the same columns.
const (
	timeWidth     = 12
	seqWidth      = 6
	actionWidth   = 20
	decisionWidth = 16
	policyWidth   = 22
	byWidth       = 22
)

// ANSI colours of the decision column.
const (
	colorRed    = "\x1b[31m"
	colorGreen  = "\x1b[32m"
	colorYellow = "\x1b[33m"
	colorReset  = "\x1b[0m"
)

// Timeline writes timeline rows one at a time, as "tail -f" needs. It
// learns each run's agent name from the records it is given. Every string
// from the log is made printable (see Printable) before it is written, so
// no record can add a row, move the cursor or change a colour.
type Timeline struct {
	w        io.Writer
	opts     TimelineOptions
	runs     map[string]*RunInfo
	policyW  int
	byW      int
	detailW  int
	location *time.Location
	lastMark string // the last mark written under a row
}

// NewTimeline returns a Timeline writing to w.
func NewTimeline(w io.Writer, opts TimelineOptions) *Timeline {
	t := &Timeline{w: w, opts: opts, runs: make(map[string]*RunInfo), policyW: policyWidth, byW: byWidth,
		detailW: cmp.Or(max(opts.Width, 0), 64), location: cmp.Or(opts.Location, time.UTC)}
	for _, r := range opts.Runs {
		t.runs[r.ID] = &r
	}
	return t
}

// Header writes the column titles.
func (t *Timeline) Header() error {
	return t.line("TIME", "SEQ", "ACTION", "DECISION", "", "POLICY", "BY", "DETAIL")
}

// Row writes e as one row (more lines when POLICY or BY wrap), unless it
// is a lifecycle record and All is not set.
func (t *Timeline) Row(e *Entry) error {
	t.learn(e)
	if !t.opts.All && e.IsLifecycle() {
		return nil
	}
	ts := Printable(e.TS)
	if !e.Time.IsZero() {
		ts = e.Time.In(t.location).Format("15:04:05.000")
	}
	decision := Printable(cmp.Or(e.Decision(), "-"))
	policy := t.cell(cmp.Or(e.PolicyRule, "-"), t.policyW)
	by := t.cell(t.who(e), t.byW)
	d := Printable(detail(e))
	if !t.opts.Wide {
		d = clippedDetail(e, t.detailW)
	}
	color := ""
	if t.opts.Color {
		color = decisionColor(e)
	}
	lines := max(len(policy), len(by))
	for i := range lines {
		if i == 0 {
			if err := t.line(ts, fmt.Sprint(e.Seq), clip(Printable(e.Action), actionWidth), decision, color, policy[0], by[0], d); err != nil {
				return err
			}
			continue
		}
		if err := t.line("", "", "", "", "", at(policy, i), at(by, i), ""); err != nil {
			return err
		}
	}
	if e.Unchained != "" && e.Unchained != t.lastMark {
		// The row above is not what the log vouches for. A mark shared by
		// the rows after it is written once.
		t.lastMark = e.Unchained
		mark := "✗ NOT VERIFIED: " + Printable(e.Unchained)
		if t.opts.Color {
			mark = colorRed + mark + colorReset
		}
		if _, err := io.WriteString(t.w, strings.Repeat(" ", timeWidth+2)+mark+"\n"); err != nil {
			return err
		}
	}
	return nil
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// cell makes s printable and wraps it to width, or keeps it whole when
// Wide.
func (t *Timeline) cell(s string, width int) []string {
	s = Printable(s)
	if t.opts.Wide {
		return []string{s}
	}
	return wrapText(s, width)
}

// line writes one line of the table; color, when set, is put around the
// decision (not its padding).
func (t *Timeline) line(ts, seq, action, decision, color, policy, by, detail string) error {
	var b strings.Builder
	b.WriteString(pad(ts, timeWidth))
	b.WriteString("  ")
	b.WriteString(strings.Repeat(" ", max(0, seqWidth-len(seq))) + seq)
	b.WriteString("  ")
	b.WriteString(pad(action, actionWidth))
	b.WriteString("  ")
	if color != "" {
		b.WriteString(color + decision + colorReset + strings.Repeat(" ", max(0, decisionWidth-utf8.RuneCountInString(decision))))
	} else {
		b.WriteString(pad(decision, decisionWidth))
	}
	b.WriteString("  ")
	b.WriteString(pad(policy, t.policyW))
	b.WriteString("  ")
	b.WriteString(pad(by, t.byW))
	b.WriteString("  ")
	b.WriteString(detail)
	_, err := io.WriteString(t.w, strings.TrimRight(b.String(), " ")+"\n")
	return err
}

func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s)))
}

// decisionColor is the colour of e's decision column: from the decision,
// one of four fixed values, or from the action for the log's own alarms.
func decisionColor(e *Entry) string {
	switch e.Decision() {
	case DecisionDeny:
		return colorRed
	case DecisionRequireApproval, DecisionEscalate:
		return colorYellow
	case DecisionAllow:
		return colorGreen
	}
	switch e.Action {
	case "audit.tamper", "audit.repair", ActionUnrecorded:
		return colorRed
	}
	return ""
}

// Learn notes what e says about its run (its agent) without writing it,
// for records that are filtered out but come before the rows shown.
func (t *Timeline) Learn(e *Entry) { t.learn(e) }

// learn notes what e says about its run.
func (t *Timeline) learn(e *Entry) {
	r := t.runs[e.RunID]
	if r == nil {
		r = &RunInfo{ID: e.RunID}
		t.runs[e.RunID] = r
	}
	r.learn(e)
}

// who names whoever is accountable for the event: who refused a request
// for approval, the approver of a tool call or a question a person
// approved, "auto
// (policy)" for one the policy allowed, else the actor, with the agent
// named by the agentInfo it reported when that name is a plain token that
// fits the column (see reportedName).
func (t *Timeline) who(e *Entry) string {
	switch e.Refused {
	case RefusedByPerson:
		return "refused: " + e.Actor.ID
	case RefusedByBridge:
		return "refused: acp-bridge"
	}
	if tc := e.ToolCall; tc != nil && tc.Approval != "" {
		if tc.Approval == "auto" {
			return "auto (policy)"
		}
		return "approved: " + tc.Approval
	}
	if e.Approved {
		return "approved: " + e.Actor.ID
	}
	if r := t.runs[e.RunID]; r != nil && r.Reported && e.Actor.Role == "operator" && t.reportedName(r.Name) {
		return "agent:" + r.Name
	}
	return e.Actor.ID
}

// reportedName reports whether the name an agent gave itself in its
// agentInfo may stand in the BY column. The column is where a person's
// answers are ("approved: user:ide"), and the name is the agent's text: a
// name with a space, or one long enough to wrap, puts a second line under
// the agent's own row that reads as a person's approval
// ("claude          approved: user:ide"). Such a row names the agent
// as the bridge's configuration does (the actor); the run's heading still
// shows the name the agent reported, quoted.
func (t *Timeline) reportedName(name string) bool {
	return Quoted(name) == name && utf8.RuneCountInString("agent:"+name) <= t.byW
}

// WriteTimelineHeader writes the column titles of a timeline.
func WriteTimelineHeader(w io.Writer) error {
	return NewTimeline(w, TimelineOptions{}).Header()
}

// WriteTimeline writes a readable timeline of entries: one row per event
// with its time, seq, action, policy decision and rule, who acted or
// approved, and a shortened detail (the prompt text; the tool with its
// arguments and its result or error; the subject). Rows stay in log
// order. Each bridge run starts with a heading naming its agent; each run
// of rows of one session starts with a heading that summarizes the whole
// session, counting each decision once.
func WriteTimeline(w io.Writer, entries []Entry, opts TimelineOptions) error {
	if opts.Runs == nil {
		opts.Runs = Runs(entries)
	}
	t := NewTimeline(w, opts)
	sums := make(map[sessionKey]SessionSummary)
	for _, s := range Sessions(entries) {
		sums[sessionKey{s.Run, s.ID}] = s
	}
	for _, s := range opts.Sessions {
		if _, ok := sums[sessionKey{s.Run, s.ID}]; ok {
			sums[sessionKey{s.Run, s.ID}] = s
		}
	}
	shown := make(map[sessionKey]int)
	for i := range entries {
		e := &entries[i]
		if opts.All || !e.IsLifecycle() {
			shown[sessionKey{e.RunID, e.Session}]++
			if opts.Wide {
				t.policyW = max(t.policyW, utf8.RuneCountInString(Printable(e.PolicyRule)))
				t.byW = max(t.byW, utf8.RuneCountInString(Printable(t.who(e))))
			}
		}
	}
	seen := make(map[sessionKey]bool)
	cur, printed := sessionKey{"\x00", "\x00"}, false
	for i := range entries {
		e := &entries[i]
		if !opts.All && e.IsLifecycle() {
			t.learn(e)
			continue
		}
		key := sessionKey{e.RunID, e.Session}
		if key != cur {
			if printed {
				fmt.Fprintln(w)
			}
			if key.run != cur.run && key.run != "" {
				if err := t.writeRunHeading(key.run); err != nil {
					return err
				}
			}
			cur, printed, t.lastMark = key, true, ""
			if err := t.writeSessionHeading(key, sums[key], shown[key], seen[key]); err != nil {
				return err
			}
			seen[key] = true
			if err := t.Header(); err != nil {
				return err
			}
		}
		if err := t.Row(e); err != nil {
			return err
		}
	}
	return nil
}

// writeRunHeading names the run, when it ran, and its agent.
func (t *Timeline) writeRunHeading(id string) error {
	r := t.runs[id]
	if r == nil {
		r = &RunInfo{ID: id}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "run %s", Quoted(id))
	if !r.Start.IsZero() {
		fmt.Fprintf(&b, "  %s → %s", r.Start.In(t.location).Format("2006-01-02 15:04:05Z07:00"), r.End.In(t.location).Format("15:04:05Z07:00"))
	}
	switch {
	case r.Reported:
		fmt.Fprintf(&b, "  agent %s as it reported itself", strconv.QuoteToASCII(r.Agent))
	case r.Agent != "":
		fmt.Fprintf(&b, "  agent %s", Quoted(r.Agent))
	}
	if len(r.Command) > 0 {
		fmt.Fprintf(&b, "  command: %s", Printable(strings.Join(r.Command, " ")))
	}
	_, err := fmt.Fprintln(t.w, b.String())
	return err
}

func (t *Timeline) writeSessionHeading(key sessionKey, s SessionSummary, shown int, continued bool) error {
	var err error
	switch {
	case key.session == "":
		_, err = fmt.Fprintf(t.w, "bridge events (no session)\n")
	case continued:
		_, err = fmt.Fprintf(t.w, "session %s (continued)\n", Quoted(key.session))
	default:
		filtered := ""
		if shown < s.Events {
			filtered = fmt.Sprintf(" (%d shown)", shown)
		}
		_, err = fmt.Fprintf(t.w, "session %s  %s → %s  %s%s, %s, %s, %d approved by a person, %d refused by a person, %d denied\n", Quoted(key.session),
			s.Start.In(t.location).Format("2006-01-02 15:04:05Z07:00"), s.End.In(t.location).Format("15:04:05Z07:00"),
			plural(s.Events, "event"), filtered, plural(s.Prompts, "prompt"), plural(s.ToolCalls, "tool call"), s.Approvals, s.Refusals, s.Denials)
	}
	return err
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// WriteTimelineRow writes one event as a timeline row. It cannot name the
// agent from earlier records; use a Timeline to write many rows.
func WriteTimelineRow(w io.Writer, e *Entry, opts TimelineOptions) error {
	return NewTimeline(w, opts).Row(e)
}
