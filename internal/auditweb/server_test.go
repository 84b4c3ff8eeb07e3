package auditweb

import (
	"bufio"
	"encoding/csv"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// hostileTool is a tool title an agent chose: markup and terminal escapes.
const hostileTool = "<script>alert(1)</script>\x1b[2J\x1b]8;;http://evil\x07\u202egnp.exe\ufe0f\u3164"

// writeLog writes a small governed session with the real audit writer:
// a prompt, a denied read, an approved write and a tool with a hostile
// title. It returns the log's path.
func writeLog(t testing.TB, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "audit.jsonl")
	sess := map[string]any{"session": "sess-1"}
	agent := audit.Actor{ID: "agent:test", Role: "operator"}
	events := []audit.Event{
		{Actor: audit.Actor{ID: "acp-bridge", Role: "system"}, Action: audit.AgentInfoAction, Subject: audit.Subject{Kind: "agent", Ref: "test-agent"},
			Input: map[string]any{"name": "test-agent", "version": "2.1.0"}},
		{Actor: agent, Action: "session.start", Subject: audit.Subject{Kind: "session", Ref: "sess-1", Path: "/work/proj"}, Metadata: sess},
		{Actor: audit.Actor{ID: "user:ide", Role: "user"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: "sess-1"},
			Input: "fix the build", Metadata: sess},
		{Actor: agent, Action: "fs.read", Subject: audit.Subject{Kind: "file", Path: "/work/proj/.env"}, Input: map[string]any{"path": "/work/proj/.env"},
			Policy:   &audit.Policy{Ref: "rules-deny-1", Decision: audit.DecisionDeny},
			Metadata: map[string]any{"session": "sess-1", "rule": "deny Read(**/.env) (/work/proj/GOVERNANCE.md:10)", "reason": "reading .env: denied"}},
		{Actor: agent, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: "call_1", Path: "/work/proj/notes.txt"},
			Policy: &audit.Policy{Ref: "rules-ask-1", Decision: audit.DecisionRequireApproval},
			Metadata: map[string]any{"session": "sess-1", "rule": "require-approval Edit (/work/proj/GOVERNANCE.md:12)",
				"toolCall": audit.ToolCall{Kind: "tool-call", Session: "sess-1", ToolCallID: "call_1", Tool: "edit", Approval: "user:ide (allow_once allow)",
					Arguments: map[string]any{"path": "/work/proj/notes.txt", "content": "one\ntwo\n"},
					Result:    []any{map[string]any{"type": "diff", "path": "/work/proj/notes.txt", "oldText": "one\n", "newText": "one\ntwo\n"}}}}},
		{Actor: agent, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: "call_2"},
			Policy: &audit.Policy{Ref: "rules-allow-1", Decision: audit.DecisionAllow},
			Metadata: map[string]any{"session": "sess-1", "rule": "allow Bash(go build:*)",
				"toolCall": audit.ToolCall{Kind: "tool-call", Session: "sess-1", ToolCallID: "call_2", Tool: hostileTool, Approval: "auto",
					Arguments: map[string]any{"command": "=cmd|' /C calc'!A0"}}}},
	}
	audittest.Append(t, path, audit.Options{}, events...)
	return path
}

// bridgeStop is the record a bridge run ends with.
var bridgeStop = audit.Event{Actor: audit.Actor{ID: "acp-bridge"}, Action: "bridge.stop", Subject: audit.Subject{Kind: "bridge"}}

// testServer serves paths through httptest, with the token.
type testServer struct {
	*Server
	base string
	c    *http.Client
}

func newTestServer(t *testing.T, paths ...string) *testServer {
	t.Helper()
	s, err := New(Options{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(nil)
	t.Cleanup(hs.Close)
	host, port, _ := net.SplitHostPort(hs.Listener.Addr().String())
	s.host, s.port = host, port
	hs.Config.Handler = s.Handler()
	for _, x := range s.logs {
		verifyAll(t, x)
	}
	return &testServer{Server: s, base: hs.URL, c: hs.Client()}
}

// verifyAll verifies the whole of x synchronously, as the poller would.
func verifyAll(t testing.TB, x *logIndex) {
	t.Helper()
	for {
		if _, err := x.verify(); err != nil {
			t.Fatal(err)
		}
		x.mu.RLock()
		done := x.ver.problem != nil || x.ver.done == len(x.recs)
		x.mu.RUnlock()
		if done {
			return
		}
	}
}

// summaries returns the session summaries x keeps.
func summaries(x *logIndex) []audit.SessionSummary {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var got []audit.SessionSummary
	for _, g := range x.groups {
		got = append(got, g.summary)
	}
	return got
}

// open requests path under the token (a path without a leading slash, as
// the pages link, is taken from the top); the test closes the body.
func (ts *testServer) open(t *testing.T, path string) *http.Response {
	t.Helper()
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	req, _ := http.NewRequest("GET", ts.base+"/"+ts.token+path, nil)
	resp, err := ts.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// get fetches path under the token.
func (ts *testServer) get(t *testing.T, path string) (*http.Response, string) {
	t.Helper()
	resp := ts.open(t, path)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestToken(t *testing.T) {
	ts := newTestServer(t, writeLog(t, t.TempDir()))
	noRedirect := *ts.c
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	tok := "/" + ts.token
	tests := []struct {
		name   string
		path   string
		cookie string // the cookie an earlier version kept the token in
		method string
		host   string
		want   int
	}{
		{"no token", "/", "", "GET", "", http.StatusForbidden},
		{"no token static", "/static/app.js", "", "GET", "", http.StatusForbidden},
		{"no token export", "/export.jsonl", "", "GET", "", http.StatusForbidden},
		{"no token events", "/events", "", "GET", "", http.StatusForbidden},
		{"no token raw", "/raw?log=0&rec=0", "", "GET", "", http.StatusForbidden},
		{"wrong token", "/" + strings.Repeat("0", 64) + "/", "", "GET", "", http.StatusForbidden},
		{"token prefix", "/" + ts.token[:10] + "/", "", "GET", "", http.StatusForbidden},
		{"token and more", tok + "0/", "", "GET", "", http.StatusForbidden},
		{"token in query", "/?token=" + ts.token, "", "GET", "", http.StatusForbidden},
		{"token in cookie", "/", ts.token, "GET", "", http.StatusForbidden},
		{"token in path", tok + "/", "", "GET", "", http.StatusOK},
		{"token static", tok + "/static/app.js", "", "GET", "", http.StatusOK},
		{"token without slash", tok, "", "GET", "", http.StatusSeeOther},
		{"post", tok + "/", "", "POST", "", http.StatusMethodNotAllowed},
		{"put", tok + "/timeline", "", "PUT", "", http.StatusMethodNotAllowed},
		{"rebinding host", tok + "/", "", "GET", "evil.example:" + ts.port, http.StatusMisdirectedRequest},
		{"other port host", tok + "/", "", "GET", "127.0.0.1:1", http.StatusMisdirectedRequest},
		{"localhost host", tok + "/", "", "GET", "localhost:" + ts.port, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, ts.base+tt.path, nil)
			if tt.cookie != "" {
				req.AddCookie(&http.Cookie{Name: "acp-bridge-audit-" + ts.port, Value: tt.cookie})
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.want)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("CSP %q", csp)
			}
			if len(resp.Cookies()) > 0 {
				t.Errorf("the server set cookies: %v", resp.Cookies())
			}
			if tt.want == http.StatusSeeOther {
				if loc := resp.Header.Get("Location"); loc != tok+"/" {
					t.Errorf("redirect to %q, want %q", loc, tok+"/")
				}
			}
		})
	}
}

func TestPages(t *testing.T) {
	ts := newTestServer(t, writeLog(t, t.TempDir()))
	resp, body := ts.get(t, "/")
	if resp.StatusCode != 200 {
		t.Fatalf("sessions: %d %s", resp.StatusCode, body)
	}
	for _, want := range []string{"sess-1", "test-agent 2.1.0", "/work/proj", "The chain is intact: all 6 records verified",
		`<td class="num deny">1</td>`, `<td class="num ask">1</td>`, `<td class="num allow">1</td>`} {
		if !strings.Contains(body, want) {
			t.Errorf("sessions page lacks %q", want)
		}
	}
	if strings.Contains(body, "<script>alert") {
		t.Error("unescaped markup")
	}
	sessURL := "/timeline?" + url.Values{"run": {ts.logs[0].groups[0].run}, "session": {"sess-1"}}.Encode()
	_, body = ts.get(t, sessURL)
	for _, want := range []string{"fix the build", "deny Read(**/.env) (/work/proj/GOVERNANCE.md:10)", "approved by user:ide (allow_once allow)",
		`<span class="dadd">&#43; two</span>`, "&lt;script&gt;alert(1)&lt;/script&gt;", `\x1b[2J`, `\u{202E}`, `\u{FE0F}\u{3164}`, "raw JSON"} {
		if !strings.Contains(body, want) {
			t.Errorf("session page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script>alert", "\x1b", "\u202e", "\x07", "\ufe0f", "\u3164"} {
		if strings.Contains(body, bad) {
			t.Errorf("session page carries %q raw", bad)
		}
	}
	// A filter to denies keeps only the denied read.
	_, body = ts.get(t, sessURL+"&decision=deny")
	if !strings.Contains(body, "records 0–1 of 1") || !strings.Contains(body, "/work/proj/.env") || strings.Contains(body, "notes.txt") {
		t.Errorf("deny filter: %s", body)
	}
	for _, tt := range []struct{ q, want string }{
		{"&tool=EDIT", "records 0–1 of 1"},
		{"&actor=user:ide", "records 0–2 of 2"}, // the prompt and the approved call
		{"&q=calc", "records 0–1 of 1"},
		{"&since=2999-01-01T00:00", "no records match"},
		{"&until=2000-01-01", "no records match"},
	} {
		if _, body := ts.get(t, sessURL+tt.q); !strings.Contains(body, tt.want) {
			t.Errorf("filter %s: want %q", tt.q, tt.want)
		}
	}
	for _, bad := range []string{"&decision=maybe", "&since=yesterday", "&log=7", "&from=-1"} {
		if resp, _ := ts.get(t, sessURL+bad); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", bad, resp.StatusCode)
		}
	}
	if resp, _ := ts.get(t, "/timeline?session=nope&run=x"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown session: %d", resp.StatusCode)
	}
}

// TestRaw checks that a timeline page links each record's raw JSON
// instead of carrying it, and that /raw serves that line as printable
// plain text under the strict CSP.
func TestRaw(t *testing.T) {
	ts := newTestServer(t, writeLog(t, t.TempDir()))
	_, page := ts.get(t, "/timeline")
	if strings.Contains(page, "prevHash") {
		t.Error("the timeline page carries raw JSON")
	}
	m := regexp.MustCompile(`data-raw="(raw\?log=0&amp;rec=(\d+))"`).FindAllStringSubmatch(page, -1)
	if len(m) == 0 {
		t.Fatal("no raw links")
	}
	for _, sm := range m {
		resp, body := ts.get(t, html.UnescapeString(sm[1]))
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") ||
			!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Fatalf("%s: %d %q %q", sm[1], resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Security-Policy"))
		}
		if !strings.Contains(body, `"prevHash"`) || strings.ContainsAny(body, "\x1b\u202e") {
			t.Errorf("%s: %q", sm[1], body)
		}
	}
	for _, bad := range []string{"/raw", "/raw?log=1&rec=0", "/raw?log=0&rec=-1", "/raw?log=0&rec=99999", "/raw?log=0&rec=x"} {
		if resp, _ := ts.get(t, bad); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, resp.StatusCode)
		}
	}
}

func TestExport(t *testing.T) {
	path := writeLog(t, t.TempDir())
	ts := newTestServer(t, path)
	lines, _ := os.ReadFile(path)
	all := strings.Split(strings.TrimSuffix(string(lines), "\n"), "\n")
	_, body := ts.get(t, "/export.jsonl?decision=deny")
	if body != all[3]+"\n" {
		t.Errorf("jsonl export of denies = %q, want the log's line 4 byte for byte", body)
	}
	_, body = ts.get(t, "/export.csv?decision=any")
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[0][0] != "seq" {
		t.Fatalf("csv rows %q", rows)
	}
	last := rows[3]
	if cmd := last[13]; cmd != "'=cmd|' /C calc'!A0" {
		t.Errorf("a formula cell is not defused: %q", cmd)
	}
	if strings.ContainsAny(body, "\x1b\x07\u202e") {
		t.Error("csv carries terminal escapes or bidi overrides raw")
	}
}

func TestTamperedShowsBreak(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	b, _ := os.ReadFile(path)
	b = []byte(strings.Replace(string(b), "fix the build", "fix the BUILD", 1))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, dir)
	_, body := ts.get(t, "/")
	for _, want := range []string{"The chain is BROKEN at " + path + " line 3", "The 2 records before it (up to seq 1) verified", `data-chain="broken"`} {
		if !strings.Contains(body, want) {
			t.Errorf("sessions page lacks %q", want)
		}
	}
	_, body = ts.get(t, "/timeline?"+url.Values{"run": {ts.logs[0].groups[0].run}, "session": {"sess-1"}}.Encode())
	if !strings.Contains(body, "not vouched for by the chain") {
		t.Error("cards after the break are not marked")
	}
}

func TestLiveAppendAndRotation(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	ts := newTestServer(t, path)
	x := ts.logs[0]
	v0, changed := x.watch()
	var more []audit.Event
	for i := range 3 {
		more = append(more, audit.Event{Actor: audit.Actor{ID: "user:ide", Role: "user"}, Action: "session.prompt",
			Subject: audit.Subject{Kind: "session", Ref: "sess-1"}, Input: "more " + string(rune('a'+i)), Metadata: map[string]any{"session": "sess-1"}})
	}
	// MaxBytes 1 rotates before every append: the live log moves to
	// .000001, .000002 while the server follows it.
	audittest.Append(t, path, audit.Options{MaxBytes: 1}, more...)
	if _, err := x.refresh(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	default:
		t.Fatal("no change signalled")
	}
	if v, _ := x.watch(); v == v0 {
		t.Fatal("version did not move")
	}
	verifyAll(t, x)
	_, body := ts.get(t, "/")
	if !strings.Contains(body, "all 9 records verified") {
		t.Errorf("after rotation: %s", body)
	}
	names, _ := chainFiles(path)
	if len(names) < 2 {
		t.Fatalf("no rotation happened: %v", names)
	}
	// The summaries, kept up to date session by session, are what
	// audit.Sessions says of the whole log read again.
	entries, err := audit.ReadEntries(names...)
	if err != nil {
		t.Fatal(err)
	}
	got := summaries(x)
	if diff := cmp.Diff(audit.Sessions(entries), got); diff != "" {
		t.Errorf("summaries after appends (-full +incremental):\n%s", diff)
	}
	if len(got) != 2 || got[1].Prompts != 3 {
		t.Errorf("summaries %+v", got)
	}
	_, body = ts.get(t, "/timeline?q=more+c")
	if !strings.Contains(body, "more c") {
		t.Error("appended record not shown")
	}
}

func TestEventsStream(t *testing.T) {
	path := writeLog(t, t.TempDir())
	ts := newTestServer(t, path)
	resp := ts.open(t, "/events?log=0")
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	br := bufio.NewReader(resp.Body)
	if line, _ := br.ReadString('\n'); line != ": connected\n" {
		t.Fatalf("first line %q", line)
	}
	audittest.Append(t, path, audit.Options{}, bridgeStop)
	ts.logs[0].refresh()
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "event: change\n" {
			break
		}
	}
}
