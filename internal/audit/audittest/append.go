package audittest

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// Append appends evs to the log at path (creating it) as a new run of the
// real audit writer, opened with opts, each with AppendSync, and closes
// the log.
func Append(tb testing.TB, path string, opts audit.Options, evs ...audit.Event) {
	tb.Helper()
	l, err := audit.Open(path, opts)
	if err != nil {
		tb.Fatal(err)
	}
	for _, ev := range evs {
		if err := l.AppendSync(ev); err != nil {
			l.Close()
			tb.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		tb.Fatal(err)
	}
}
