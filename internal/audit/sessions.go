package audit

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"time"
)

// SessionSummary is one line of "acp-bridge audit sessions": one ACP
// session in one bridge run.
type SessionSummary struct {
	ID    string `json:"session"`
	Run   string `json:"run,omitempty"`
	Agent string `json:"agent,omitempty"`
	// Start and End are the times of its first and last events.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Events counts its records, lifecycle records included.
	Events  int `json:"events"`
	Prompts int `json:"prompts"`
	// ToolCalls counts distinct tool call ids.
	ToolCalls int `json:"toolCalls"`
	// Denials counts deny decisions, each once however many records it
	// left (see decisions.go).
	Denials int `json:"denials"`
	// Approvals counts what a person approved when asked: tool calls, each
	// once however often it was asked, and each question of the bridge's
	// own about a file write or a terminal.
	Approvals int `json:"approvals"`
	// Refusals counts what a person refused when asked (Entry.Refused is
	// RefusedByPerson): tool calls, each once however often it was
	// asked, and each question of the bridge's own about a file write or
	// a terminal.
	Refusals int `json:"refusals"`
	// Decisions counts decisions by value (allow, deny, ...), each once
	// however many records it left.
	Decisions map[string]int `json:"-"`
}

// sessionKey identifies a session within a run: a session loaded again by
// a later bridge run is a new row.
type sessionKey struct{ run, session string }

// Sessions summarizes entries by session and run, in order of first
// appearance.
func Sessions(entries []Entry) []SessionSummary {
	var tallies []*SessionTally
	index := make(map[sessionKey]int)
	runs := make(map[string]*RunInfo)
	for i := range entries {
		e := &entries[i]
		r := runs[e.RunID]
		if r == nil {
			r = &RunInfo{ID: e.RunID}
			runs[e.RunID] = r
		}
		r.learn(e)
		if e.Session == "" {
			continue
		}
		key := sessionKey{e.RunID, e.Session}
		k, ok := index[key]
		if !ok {
			k = len(tallies)
			index[key] = k
			tallies = append(tallies, NewSessionTally(e.RunID, e.Session))
		}
		tallies[k].Add(e)
	}
	var out []SessionSummary
	for _, t := range tallies {
		s := t.Summary()
		s.Agent = runs[s.Run].Agent
		out = append(out, s)
	}
	return out
}

// SessionTally summarizes the events of one session as they come, as
// Sessions does, so a reader need not keep them. Agent is left empty: it
// comes from the run (see Runs).
type SessionTally struct {
	s                        SessionSummary
	calls, approved, refused map[string]bool
	decisions                *decisionCounter
	// callOf is, per tool call id, the target (path or command) of the
	// call the id names now and how many calls it named before.
	callOf map[string]*idCalls
}

// NewSessionTally starts the tally of session id of run run.
func NewSessionTally(run, id string) *SessionTally {
	return &SessionTally{s: SessionSummary{ID: id, Run: run}, calls: make(map[string]bool), approved: make(map[string]bool),
		refused: make(map[string]bool), decisions: newDecisionCounter(), callOf: make(map[string]*idCalls)}
}

// Add counts e, the session's next event.
func (t *SessionTally) Add(e *Entry) {
	s := &t.s
	if s.Events == 0 {
		s.Start = e.Time
	}
	s.Events++
	s.End = e.Time
	if e.IsPrompt() {
		s.Prompts++
		t.decisions.newTurn()
	}
	// The arguments are decoded once, for both counts: the call's key
	// reads what decoded, the decisions only arguments that decode whole.
	var targets Targets
	var whole *Targets
	if e.ToolCall != nil || e.Decision() != "" {
		var err error
		if targets, err = e.Targets(); err == nil {
			whole = &targets
		}
	}
	t.decisions.add(e, whole)
	if tc := e.ToolCall; tc != nil {
		id := cmp.Or(tc.ToolCallID, e.Subject.Ref)
		if id == "" {
			id = fmt.Sprint("#", e.Seq)
		}
		id = t.callKey(id, e, targets)
		t.calls[id] = true
		if tc.Approval != "" && tc.Approval != "auto" && e.Refused == "" {
			t.approved[id] = true
		}
	}
	if e.Approved || e.Refused == RefusedByPerson {
		id := fmt.Sprint("#", e.Seq)
		if tc := e.ToolCall; tc != nil && tc.ToolCallID != "" {
			id = t.callKey(tc.ToolCallID, e, targets)
		}
		if e.Approved {
			t.approved[id] = true
		} else {
			t.refused[id] = true
		}
	}
}

// idCalls is what a session's records said under one tool call id.
type idCalls struct {
	target string
	n      int
}

// callKey names the call record e, whose arguments name a, is about
// under tool call id id. The agent chooses tool call ids: a record under
// the id that names another path or command than the id's earlier records
// is about another call.
func (t *SessionTally) callKey(id string, e *Entry, a Targets) string {
	c := t.callOf[id]
	if c == nil {
		c = &idCalls{}
		t.callOf[id] = c
	}
	target := cmp.Or(a.Command, a.FilePath, a.Path, a.AbsPath)
	if e.Subject.Kind == "tool-call" {
		target = cmp.Or(target, e.Subject.Path)
	}
	switch {
	case target == "" || target == c.target:
	case c.target == "":
		c.target = target
	default:
		c.target, c.n = target, c.n+1
	}
	if c.n == 0 {
		return id
	}
	return fmt.Sprintf("%s\x00%d", id, c.n)
}

// Summary returns the summary of the events added so far.
func (t *SessionTally) Summary() SessionSummary {
	s := t.s
	s.ToolCalls = len(t.calls)
	s.Approvals = len(t.approved)
	s.Refusals = len(t.refused)
	s.Denials = t.decisions.count[DecisionDeny]
	s.Decisions = maps.Clone(t.decisions.count)
	return s
}

// WriteSessions prints summaries as an aligned table. Ids and names from
// the log are quoted unless they are plain tokens (see Quoted); long ones
// wrap.
func WriteSessions(w io.Writer, sessions []SessionSummary, loc *time.Location) error {
	t := table{
		head:    []string{"SESSION", "RUN", "AGENT", "START", "END", "EVENTS", "PROMPTS", "TOOL CALLS", "APPROVED", "REFUSED", "DENIED"},
		wrap:    []int{36, 25, 24},
		numeric: 5,
	}
	for _, s := range sessions {
		t.rows = append(t.rows, []string{Quoted(s.ID), orDash(s.Run), orDash(s.Agent),
			s.Start.In(loc).Format("2006-01-02 15:04:05Z07:00"), s.End.In(loc).Format("15:04:05Z07:00"),
			fmt.Sprint(s.Events), fmt.Sprint(s.Prompts), fmt.Sprint(s.ToolCalls), fmt.Sprint(s.Approvals), fmt.Sprint(s.Refusals), fmt.Sprint(s.Denials)})
	}
	return t.write(w)
}

// orDash is Quoted(s), or "-" for nothing.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return Quoted(s)
}
