package auditweb

import (
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/terminaltest"
)

// FuzzPages writes a log whose agent-chosen strings (tool title, session
// id, command, reason) are fuzzed, and asks for the pages with a fuzzed
// query: no panic, no error but a clean 4xx, and nothing from the log
// reaches the page as markup, a control character or a bidi override.
func FuzzPages(f *testing.F) {
	f.Add("edit", "sess-1", "go test ./...", "denied", "decision=deny")
	f.Add(hostileTool, "</td><script>x</script>", "=1+2", "\x1b[31mred", "q=%3Cscript%3E&since=2026-01-01")
	f.Add("\u202e\u2066", "a\nb", "\r\n", "\x00\x7f\u0085", "from=99999999999999999999&tool=%00")
	f.Add("s\ufe0f\u3164", "s1", "\u034f\u115f", "\U000e0100", "decision=deny")
	f.Add("", "", "", "", "until=2026-13-45&actor=%E2%80%AE")
	f.Fuzz(func(t *testing.T, tool, session, command, reason, rawQuery string) {
		if session == "" {
			session = "s"
		}
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		l, err := audit.Open(path, audit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		md := map[string]any{"session": session, "reason": reason, "rule": reason,
			"toolCall": audit.ToolCall{Kind: "tool-call", Session: session, ToolCallID: tool, Tool: tool, Approval: reason,
				Arguments: map[string]any{"command": command}, Result: []any{map[string]any{"type": "diff", "path": tool, "newText": command}}}}
		if err := l.AppendSync(audit.Event{Actor: audit.Actor{ID: tool}, Action: "tool.call", Subject: audit.Subject{Kind: "terminal", Ref: command, Path: reason},
			Policy: &audit.Policy{Ref: "r", Decision: audit.DecisionDeny}, Input: command, Metadata: md}); err != nil {
			l.Close() // its flusher would outlive the test
			t.Skip("the writer refuses this event:", err)
		}
		l.Close()
		s, err := New(Options{Paths: []string{path}})
		if err != nil {
			t.Fatal(err)
		}
		s.host, s.port = "127.0.0.1", "1"
		for {
			if _, err := s.logs[0].verify(); err != nil {
				t.Fatal(err)
			}
			if s.logs[0].ver.done == len(s.logs[0].recs) || s.logs[0].ver.problem != nil {
				break
			}
		}
		run := s.logs[0].groups[0].run
		sess := url.Values{"run": {run}, "session": {session}}.Encode()
		for _, target := range []string{"/", "/timeline?" + sess, "/timeline?" + rawQuery, "/timeline?" + sess + "&" + rawQuery,
			"/export.csv?" + rawQuery, "/export.jsonl?" + sess} {
			req := httptest.NewRequest("GET", "http://127.0.0.1:1/", nil)
			u, err := url.Parse("/" + s.token + target)
			if err != nil {
				continue
			}
			req.URL = u
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			body := w.Body.String()
			switch w.Code {
			case 200, 400, 404:
			default:
				t.Fatalf("%s: status %d: %s", target, w.Code, body)
			}
			if strings.HasPrefix(target, "/export.jsonl") {
				continue // the log's lines byte for byte, as a download
			}
			if strings.Contains(w.Header().Get("Content-Type"), "html") && strings.Count(body, "<script") != 1 {
				t.Fatalf("%s: markup from the log in the page:\n%s", target, body)
			}
			for _, r := range body {
				if r != '\n' && r != '\t' && terminaltest.ActsOn(r) {
					t.Fatalf("%s: %U reaches the page raw", target, r)
				}
			}
		}
	})
}
