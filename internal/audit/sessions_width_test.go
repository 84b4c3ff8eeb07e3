package audit

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"

	"golang.org/x/text/width"
)

// cells is how many terminal columns s takes: none for a combining mark,
// two for a wide or fullwidth character, one for the rest.
func cells(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me):
		case width.LookupRune(r).Kind() == width.EastAsianWide || width.LookupRune(r).Kind() == width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// TestSessionsColumnsAlign: session ids, runs and agent names are the
// agent's, and the columns after them must stay under their headings on a
// terminal. An id of combining marks (no width) or wide characters (two
// columns each) counted as one column a rune moved the row's counts under
// other headings: a session's one denial read as one approval.
func TestSessionsColumnsAlign(t *testing.T) {
	start := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	var sessions []SessionSummary
	for _, id := range []string{"sess-2", "sess-9" + strings.Repeat("\u0301", 8), "s\u0435ss-1", "漢字漢字", "ｓｅｓｓ"} {
		sessions = append(sessions, SessionSummary{ID: id, Run: "run-" + id, Agent: "agent:" + id, Start: start, End: start, Events: 2, Denials: 1})
	}
	var b bytes.Buffer
	if err := WriteSessions(&b, sessions, time.UTC); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, continued) {
			continue // a wrapped cell's next line, without the counts
		}
		if got, want := cells(l), cells(lines[0]); got != want {
			t.Errorf("row ends at column %d, the heading at %d (the counts stand under other headings):\n%s\n%s", got, want, lines[0], l)
		}
	}
}
