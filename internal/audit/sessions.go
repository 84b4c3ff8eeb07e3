package audit

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

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
