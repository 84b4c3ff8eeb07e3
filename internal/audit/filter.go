package audit

import (
	"strings"
	"time"
)

// Filter selects entries. Zero fields match everything.
type Filter struct {
	Run      string // runId
	Session  string
	Tool     string    // tool name, case-insensitive
	Decision string    // allow, deny, require-approval, escalate
	Since    time.Time // events at or after
}

// Match reports whether e passes every set field of f.
func (f Filter) Match(e *Entry) bool {
	switch {
	case f.Run != "" && e.RunID != f.Run:
		return false
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
