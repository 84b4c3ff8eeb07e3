package audit

import (
	"cmp"
	"fmt"
	"io"
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
	// Approvals counts tool calls a person approved.
	Approvals int `json:"approvals"`
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
	var out []SessionSummary
	index := make(map[sessionKey]int)
	type counts struct {
		calls, approved map[string]bool
		decisions       *decisionCounter
	}
	var per []counts
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
			k = len(out)
			index[key] = k
			out = append(out, SessionSummary{ID: e.Session, Run: e.RunID, Start: e.Time})
			per = append(per, counts{make(map[string]bool), make(map[string]bool), newDecisionCounter()})
		}
		s, c := &out[k], &per[k]
		s.Events++
		s.End = e.Time
		if e.IsPrompt() {
			s.Prompts++
			c.decisions.newTurn()
		}
		c.decisions.add(e)
		if tc := e.ToolCall; tc != nil {
			id := cmp.Or(tc.ToolCallID, e.Subject.Ref, fmt.Sprint("#", e.Seq))
			c.calls[id] = true
			if tc.Approval != "" && tc.Approval != "auto" {
				c.approved[id] = true
			}
		}
	}
	for i := range out {
		out[i].ToolCalls = len(per[i].calls)
		out[i].Approvals = len(per[i].approved)
		out[i].Denials = per[i].decisions.count[DecisionDeny]
		out[i].Decisions = per[i].decisions.count
		out[i].Agent = runs[out[i].Run].Agent
	}
	return out
}

// WriteSessions prints summaries as an aligned table. Ids and names from
// the log are quoted unless they are plain tokens (see Quoted); long ones
// wrap.
func WriteSessions(w io.Writer, sessions []SessionSummary, loc *time.Location) error {
	t := table{
		head:    []string{"SESSION", "RUN", "AGENT", "START", "END", "EVENTS", "PROMPTS", "TOOL CALLS", "APPROVED", "DENIED"},
		wrap:    []int{36, 25, 24},
		numeric: 5,
	}
	for _, s := range sessions {
		t.rows = append(t.rows, []string{Quoted(s.ID), orDash(s.Run), orDash(s.Agent),
			s.Start.In(loc).Format("2006-01-02 15:04:05Z07:00"), s.End.In(loc).Format("15:04:05Z07:00"),
			fmt.Sprint(s.Events), fmt.Sprint(s.Prompts), fmt.Sprint(s.ToolCalls), fmt.Sprint(s.Approvals), fmt.Sprint(s.Denials)})
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
