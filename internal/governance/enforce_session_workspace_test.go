package governance

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestForkedSessionWorkspace: a session/fork opens the session its
// response names, in the directory the IDE forks it into and with the mode
// the response gives; the session it copies keeps its own. A terminal the
// agent starts in "/" in the fork does not make "/" its workspace.
func TestForkedSessionWorkspace(t *testing.T) {
	h := rootlessHarness(t)
	h.openSession() // s1 in ws
	ws, sub := h.root, filepath.Join(h.root, "src")
	h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/fork","params":{"sessionId":"s1","cwd":%q,"mcpServers":[]}}`, sub)
	h.AgentGets()
	h.agent(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"f1","modes":{"currentModeId":"plan","availableModes":[]}}}`)
	h.ClientGets()

	if got := h.enf.Roots("f1"); !slices.Equal(got, []string{sub}) {
		t.Errorf("the fork's roots are %q, want %q", got, sub)
	}
	if got := h.enf.Roots("s1"); !slices.Equal(got, []string{ws}) {
		t.Errorf("the forked session's roots are %q, want %q", got, ws)
	}
	if got, want := h.enf.Mode("f1"), "plan"; got != want {
		t.Errorf("the fork's mode is %q, want %q", got, want)
	}
	if got := h.enf.Mode("s1"); got != "" {
		t.Errorf("the forked session's mode is %q, want none (it never had one)", got)
	}
	var started []string
	for _, e := range h.rec.find("session.start", "") {
		started = append(started, e.ev.Subject.Ref+" "+e.ev.Subject.Path)
	}
	if want := []string{"s1 " + ws, "f1 " + sub}; !slices.Equal(started, want) {
		t.Errorf("session.start records %q, want %q", started, want)
	}

	outside := filepath.Join(filepath.Dir(ws), "outside", "passwd")
	h.agent(`{"jsonrpc":"2.0","id":"t1","method":"terminal/create","params":{"sessionId":"f1","command":"cat","args":[%q],"cwd":"/"}}`, outside)
	h.AgentGets() // the refusal
	if n := len(h.rec.find("terminal.create", "deny")); n != 1 {
		t.Errorf("%d terminal.create denials, want 1: a terminal in / read a file outside the fork's workspace", n)
	}
}

// TestLoadedSessionWorkspaceDuringReplay: the agent may ask the IDE for
// files and terminals in a session it is still loading; they are judged in
// the directories the IDE loads it in, not in a cwd the request gives.
func TestLoadedSessionWorkspaceDuringReplay(t *testing.T) {
	h := rootlessHarness(t)
	h.openSession()
	sub := filepath.Join(h.root, "src")
	h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s2","cwd":%q,"mcpServers":[]}}`, sub)
	h.AgentGets()
	if got := h.enf.Roots("s2"); !slices.Equal(got, []string{sub}) {
		t.Errorf("while it loads, the session's roots are %q, want %q", got, sub)
	}
	h.agent(`{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"s2","path":%q}}`, filepath.Join(sub, "a.go"))
	if m := h.nextAtIDE(); m["method"] != "fs/read_text_file" {
		t.Fatalf("the IDE got %v, want the read inside the loading session's workspace", m)
	}
	outside := filepath.Join(filepath.Dir(h.root), "outside", "passwd")
	h.agent(`{"jsonrpc":"2.0","id":"t1","method":"terminal/create","params":{"sessionId":"s2","command":"cat","args":[%q],"cwd":"/"}}`, outside)
	h.AgentGets()
	if n := len(h.rec.find("terminal.create", "deny")); n != 1 {
		t.Errorf("%d terminal.create denials, want 1: a terminal in / read a file outside the loading session's workspace", n)
	}
	// A load that fails leaves nothing of the session it named.
	h.agent(`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"no such session"}}`)
	for m := h.nextAtIDE(); get(m, "id") != float64(2); m = h.nextAtIDE() {
	}
	if got := h.enf.Roots("s2"); slices.Contains(got, sub) {
		t.Errorf("after the load failed, the session's roots are %q", got)
	}
}

// TestUnknownSessionHasNoWorkspace: a session whose workspace the bridge
// does not know has none: no cwd a request gives becomes it.
func TestUnknownSessionHasNoWorkspace(t *testing.T) {
	h := rootlessHarness(t)
	h.openSession()
	if cwd, roots := h.enf.sessionContext("s9"); cwd != "" || !slices.Equal(roots, []string{noWorkspace}) {
		t.Errorf("sessionContext of an unknown session = %q, %q; want no cwd and %q", cwd, roots, noWorkspace)
	}
	if cwd, roots := h.enf.sessionContext("s1"); cwd != h.root || !slices.Equal(roots, []string{h.root}) {
		t.Errorf("sessionContext of s1 = %q, %q; want its cwd and root %q", cwd, roots, h.root)
	}
}
