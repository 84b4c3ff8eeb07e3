package governance

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// rootlessHarness builds a harness whose engine has no --workspace-root:
// each session's workspace is the directories the IDE opens it in.
func rootlessHarness(t *testing.T) *harness {
	t.Helper()
	p := testdataPolicy(t)
	tmp := t.TempDir()
	tree{dirs: []string{"ws/src", "outside"}, files: []string{"ws/src/a.go", "outside/passwd"}}.make(t, tmp)
	h := newHarness(t, EnforceOptions{Engine: NewEngine(p, EngineOptions{Home: tmp + "/home"})})
	h.root = filepath.Join(tmp, "ws")
	return h
}

// TestListedSessionDirectories: a session the agent lists in directories
// the person did not open is taken out of its session/list answer, and a
// session/load or session/resume in such a directory is refused; sessions
// in the directories the IDE named pass byte for byte, and so does a load
// of a session the IDE names itself (its own history, as Zed restores a
// thread at start).
func TestListedSessionDirectories(t *testing.T) {
	h := rootlessHarness(t)
	ws, outside := h.root, filepath.Join(filepath.Dir(h.root), "outside")
	entry := func(id, cwd string, more ...string) string {
		s := fmt.Sprintf(`{"sessionId":%q,"cwd":%q`, id, cwd)
		if len(more) > 0 {
			s += fmt.Sprintf(`,"additionalDirectories":[%q]`, more[0])
		}
		return s + `,"title":"t"}`
	}

	// Before the IDE names any directory, no listed session is in one.
	h.ide(`{"jsonrpc":"2.0","id":9,"method":"session/list","params":{}}`)
	h.AgentGets()
	h.agent(`{"jsonrpc":"2.0","id":9,"result":{"sessions":[%s]}}`, entry("early", ws))
	if got, want := h.ClientGets(), `{"jsonrpc":"2.0","id":9,"result":{"sessions":[]}}`; got != want {
		t.Errorf("before any session, the IDE got\n%s\nwant\n%s", got, want)
	}

	h.openSession() // in ws
	sessions := []string{entry("in-ws", ws), entry("root", "/"), entry("sub", filepath.Join(ws, "src")),
		entry("extra", ws, outside), entry("dotdot", ws+"/..")}
	h.ide(`{"jsonrpc":"2.0","id":10,"method":"session/list","params":{}}`)
	h.AgentGets()
	h.agent(`{"jsonrpc":"2.0","id":10,"result":{"sessions":[%s],"nextCursor":"c"}}`, strings.Join(sessions, ", "))
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":10,"result":{"sessions":[%s,%s],"nextCursor":"c"}}`, sessions[0], sessions[2])
	if got := h.ClientGets(); got != want {
		t.Errorf("the IDE got\n%s\nwant\n%s", got, want)
	}
	if n := len(h.rec.find("session.listed", "deny")); n != 4 {
		t.Errorf("%d session.listed denials recorded, want 4 (early, root, extra, dotdot)", n)
	}

	refused := []struct{ method, id, params string }{
		{"session/load", "root", `"cwd":"/"`},
		{"session/resume", "extra", fmt.Sprintf(`"cwd":%q,"additionalDirectories":[%q]`, ws, outside)},
		{"session/load", "dotdot", fmt.Sprintf(`"cwd":%q`, filepath.Dir(ws)+"/")},
		{"session/fork", "root", `"cwd":"/"`},
	}
	for i, r := range refused {
		h.ide(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"sessionId":%q,%s,"mcpServers":[]}}`, 20+i, r.method, r.id, r.params)
		m := h.nextAtIDE()
		if get(m, "error", "code") != float64(-32602) || !strings.Contains(fmt.Sprint(get(m, "error", "message")), "only the agent named") {
			t.Errorf("%s of %s: the IDE got %v, want a -32602 refusal naming the agent's directory", r.method, r.id, m)
		}
	}

	// The IDE's own choices still open.
	h.ide(`{"jsonrpc":"2.0","id":30,"method":"session/load","params":{"sessionId":"in-ws","cwd":%q,"mcpServers":[]}}`, ws)
	if m := h.nextAtAgent(); m["method"] != "session/load" {
		t.Fatalf("the agent got %v, want the IDE's session/load in its own directory", m)
	}
}

// TestListedSessionFirstLoad: a session/load the IDE sends before anything
// else (Zed restoring its last thread from its own history) opens, and
// its directory counts as named by the IDE afterwards.
func TestListedSessionFirstLoad(t *testing.T) {
	h := rootlessHarness(t)
	h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/load","params":{"sessionId":"old","cwd":%q,"mcpServers":[]}}`, h.root)
	if m := h.nextAtAgent(); m["method"] != "session/load" {
		t.Fatalf("the agent got %v, want session/load", m)
	}
	h.agent(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	h.ClientGets()
	h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/list","params":{"cwd":%q}}`, h.root)
	h.AgentGets()
	resp := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"result":{"sessions":[{"sessionId":"old","cwd":%q}]}}`, h.root)
	h.agent("%s", resp)
	if got := h.ClientGets(); got != resp {
		t.Errorf("the IDE got\n%s\nwant\n%s", got, resp)
	}
}

// TestListedSessionUnreadable: a list the bridge cannot read one way only
// reaches the IDE without its sessions.
func TestListedSessionUnreadable(t *testing.T) {
	for name, sessions := range map[string]string{
		"duplicate-cwd": `[{"sessionId":"a","cwd":"/","cwd":"/x"}]`,
		"cwd-number":    `[{"sessionId":"a","cwd":5}]`,
		"not-array":     `{"sessionId":"a","cwd":"/"}`,
	} {
		t.Run(name, func(t *testing.T) {
			h := rootlessHarness(t)
			h.openSession()
			h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/list","params":{}}`)
			h.AgentGets()
			h.agent(`{"jsonrpc":"2.0","id":5,"result":{"sessions":%s}}`, sessions)
			if m := h.nextAtIDE(); fmt.Sprint(get(m, "result", "sessions")) != "[]" && get(m, "error") == nil {
				t.Errorf("the IDE got %v, want no sessions", m)
			}
		})
	}
}

// TestListedSessionWorkspaceRoot: with --workspace-root the roots bound
// the listed sessions.
func TestListedSessionWorkspaceRoot(t *testing.T) {
	h := newHarness(t, EnforceOptions{})
	h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/list","params":{}}`)
	h.AgentGets()
	in := fmt.Sprintf(`{"sessionId":"a","cwd":%q}`, h.root)
	h.agent(`{"jsonrpc":"2.0","id":5,"result":{"sessions":[%s,{"sessionId":"b","cwd":"/"}]}}`, in)
	if got, want := h.ClientGets(), `{"jsonrpc":"2.0","id":5,"result":{"sessions":[`+in+`]}}`; got != want {
		t.Errorf("the IDE got\n%s\nwant\n%s", got, want)
	}
}

// TestListedSessionCaseVariant: a listed session read one way by a client
// that matches names exactly and another by one that folds case (a "CWD"
// beside "cwd") never reaches the IDE.
func TestListedSessionCaseVariant(t *testing.T) {
	h := rootlessHarness(t)
	h.openSession()
	h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/list","params":{}}`)
	h.AgentGets()
	h.agent(`{"jsonrpc":"2.0","id":5,"result":{"sessions":[{"sessionId":"a","cwd":%q,"CWD":"/"}]}}`, h.root)
	m := h.nextAtIDE()
	if s := fmt.Sprint(get(m, "result", "sessions")); s != "[]" && get(m, "error") == nil {
		t.Errorf("the IDE got %v, want no session or an error", m)
	}
}
