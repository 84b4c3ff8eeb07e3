package auditweb

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// TestLookAlikeSessionIDs: session ids are the agent's, and two that
// differ by a look-alike letter, a combining mark or a character that
// prints as nothing must not read as one on the sessions page or as a
// session page's heading; a plain id is shown as it is.
func TestLookAlikeSessionIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	ids := map[string]string{
		"sess-1":                  "sess-1",
		"s\u0435ss-1":             `&#34;s\u0435ss-1&#34;`, // Cyrillic е
		"sess-1\ufe0f":            `&#34;sess-1\ufe0f&#34;`,
		"sess-\u0031\u0301\u0301": `&#34;sess-1\u0301\u0301&#34;`,
	}
	var events []audit.Event
	for id := range ids {
		events = append(events, audit.Event{Actor: audit.Actor{ID: "user:ide", Role: "user"}, Action: "session.prompt",
			Subject: audit.Subject{Kind: "session", Ref: id}, Input: "hi", Metadata: map[string]any{"session": id}})
	}
	audittest.Append(t, path, audit.Options{}, events...)
	ts := newTestServer(t, path)
	_, body := ts.get(t, "/")
	for id, want := range ids {
		if !strings.Contains(body, `">`+want+`</a>`) {
			t.Errorf("sessions page shows %q otherwise than %s", id, want)
		}
		run := ts.logs[0].groups[0].run
		_, page := ts.get(t, "/timeline?"+url.Values{"run": {run}, "session": {id}}.Encode())
		if !strings.Contains(page, `<span class="mono">`+want+`</span></h1>`) || !strings.Contains(page, "<title>Session "+want+" ·") {
			t.Errorf("session page of %q does not head it as %s", id, want)
		}
	}
}
