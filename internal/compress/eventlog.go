package compress

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Event types of the compression event log (CTX-001 "Compression Event
// Logging"), plus the goal-drift and verification records the pipeline adds.
const (
	EventTier1        = "TIER_1"
	EventTier2        = "TIER_2"
	EventTier3        = "TIER_3"
	EventCompact      = "AGENT_COMPACT"
	EventRollover     = "ROLLOVER"
	EventGoalDrift    = "GOAL_DRIFT"
	EventRejected     = "SUMMARY_REJECTED"
	EventWriteRefused = "WRITE_REFUSED"
	IntentPreserved   = "YES"
	IntentVerify      = "VERIFICATION_NEEDED"
)

// Event is one compression event, one line of the JSONL log.
type Event struct {
	// Time is when the event happened.
	Time time.Time `json:"timestamp"`
	// Session is the IDE's session id.
	Session string `json:"session"`
	// Type is TIER_1, TIER_2, TIER_3 or one of the other Event* values.
	Type string `json:"event"`
	// Trigger says what caused it, e.g. "fs/read_text_file over 15000 tokens".
	Trigger string `json:"trigger"`
	// Level is the context level when it happened.
	Level string `json:"level"`
	// TokensBefore, TokensAfter and TokensSaved are o200k counts of the
	// content before and after compression.
	TokensBefore int `json:"tokensBefore"`
	TokensAfter  int `json:"tokensAfter"`
	TokensSaved  int `json:"tokensSaved"`
	// Files are the cache files created.
	Files []string `json:"filesCreated"`
	// IntentPreserved is "YES" or "VERIFICATION_NEEDED".
	IntentPreserved string `json:"intentPreserved"`
	// Detail is free text: the drift indicator, the rejection reason.
	Detail string `json:"detail,omitempty"`
}

// EventLog writes events as JSONL and keeps the most recent ones in memory
// for the bridge-log command. Sink, when set, also receives every event
// (the audit log when governance is on). It is safe for concurrent use.
type EventLog struct {
	mu     sync.Mutex // guards w, recent, err
	w      io.Writer
	sink   func(Event) error
	recent []Event
	err    error
}

const recentEvents = 50

// NewEventLog returns a log writing to w (nil: memory only) and handing
// every event to sink (nil: none).
func NewEventLog(w io.Writer, sink func(Event) error) *EventLog {
	return &EventLog{w: w, sink: sink}
}

// Add records e. A write error is kept and returned by Err; the event is
// still kept in memory.
func (l *EventLog) Add(e Event) {
	if e.IntentPreserved == "" {
		e.IntentPreserved = IntentPreserved
	}
	if e.Files == nil {
		e.Files = []string{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recent = append(l.recent, e)
	if len(l.recent) > recentEvents {
		l.recent = l.recent[len(l.recent)-recentEvents:]
	}
	if l.w != nil && l.err == nil {
		b, err := json.Marshal(e)
		if err == nil {
			_, err = l.w.Write(append(b, '\n'))
		}
		if err != nil {
			l.err = fmt.Errorf("writing compression log: %v", err)
		}
	}
	if l.sink != nil {
		if err := l.sink(e); err != nil && l.err == nil {
			l.err = fmt.Errorf("auditing compression event: %v", err)
		}
	}
}

// Recent returns up to n of the latest events for session (all sessions
// if session is empty), oldest first.
func (l *EventLog) Recent(session string, n int) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Event
	for i := len(l.recent) - 1; i >= 0 && len(out) < n; i-- {
		if session == "" || l.recent[i].Session == session {
			out = append(out, l.recent[i])
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Err returns the first write error, if any.
func (l *EventLog) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
