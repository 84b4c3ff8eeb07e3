package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// composeFeatures are the bridge's features as TestFeaturesCompose turns
// them on, each a bit of the case number.
var composeFeatures = []string{"manifest", "governance", "compress", "adapter"}

// composeCase is one combination of the features.
type composeCase uint

func (c composeCase) has(feature string) bool {
	for i, f := range composeFeatures {
		if f == feature {
			return c&(1<<i) != 0
		}
	}
	panic("unknown feature " + feature)
}

func (c composeCase) String() string {
	var on []string
	for _, f := range composeFeatures {
		if c.has(f) {
			on = append(on, f)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, "+")
}

// composeManifest withholds the client's terminal and the agent's image and
// audio prompts, and grants the rest the session uses.
const composeManifest = "---\nname: compose\nid: compose\ndescription: test\nversion: 1.0.0\nkind: bridge\ntransport: stdio\nmetadata:\n  aip44:\n    acp_rev: abc1234\n" +
	"    tier: governance-aware\n    capabilities:\n      client:\n        fs: {readTextFile: true, writeTextFile: true}\n        terminal: false\n" +
	"      agent:\n        loadSession: true\n        promptCapabilities: {image: false, audio: false, embeddedContext: true}\n---\n"

// TestFeaturesCompose runs every combination of the manifest, governance,
// compression and adapter features over one scripted session with the
// built bridge and the compose agent as real processes: initialize, a turn
// that reads a file inside the workspace and the workspace's .env, with
// compression a /bridge-compress and a second such turn (which rolls the
// agent over to a fresh session), a turn the IDE cancels, a session/load
// and a last read turn. Then it checks what each side received: the IDE
// only ever sees its own session id; every in-workspace read reaches the
// IDE and its content the agent; the .env read is denied under the policy
// (and reaches the IDE without one); the cancel ends the turn as
// cancelled; the load replays its history to the IDE; the manifest masks
// what it withholds; the Claude adapter's hook is in every session the
// agent opens, the rollover's too; and the audit log verifies with the decisions made.
// Each combination has its own directory and processes: they run in
// parallel, as most of a run is spent waiting on its processes.
func TestFeaturesCompose(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for c := range composeCase(1 << len(composeFeatures)) {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			composeOnce(t, exe, c)
		})
	}
}

// composeRun is one bridge process with the compose agent behind it.
type composeRun struct {
	t        *testing.T
	c        composeCase
	ws       string
	agentLog string
	auditLog string
	ide      *acpwiretest.IDE
	stopped  sync.Once
}

func composeOnce(t *testing.T, exe string, c composeCase) {
	dir := t.TempDir()
	r := &composeRun{t: t, c: c, ws: filepath.Join(dir, "ws"), agentLog: filepath.Join(dir, "agent.jsonl"),
		auditLog: filepath.Join(dir, "audit.jsonl")}
	if err := os.MkdirAll(r.ws, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"notes.txt": "release notes\n", ".env": "SECRET=hunter2\n"} {
		if err := os.WriteFile(filepath.Join(r.ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"--log-level", "warn"}
	if c.has("manifest") {
		m := filepath.Join(dir, "compose", "ACP.md") // a manifest's directory bears its name
		if err := os.MkdirAll(filepath.Dir(m), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(m, []byte(composeManifest), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--manifest", m)
	}
	if c.has("governance") {
		// No --workspace-root: each session's cwd is its root, so the
		// bridge must know which session a message belongs to.
		args = append(args, "--policy", writePolicy(t, dir, "  deny: [Read(**/.env)]\n  allow: [Read]\n"), "--audit", r.auditLog)
	}
	if c.has("compress") {
		args = append(args, "--compress", "on", "--cache-dir", filepath.Join(dir, "cache"))
	}
	if c.has("adapter") {
		args = append(args, "--adapter", "claude")
	} else {
		args = append(args, "--adapter", "none")
	}
	args = append(args, "--", "env", "-u", "ACP_BRIDGE_TEST_MAIN", "ACP_BRIDGE_TEST_AGENT=compose", composeLogEnv+"="+r.agentLog, exe)
	r.ide = acpwiretest.IDEOptions{Answer: answerFromDisk}.Start(t, bridgeCommand(t, args...))
	r.ide.Timeout = 20 * time.Second
	defer r.stop()
	r.session()
}

// stop closes the IDE's end and waits for the bridge to exit, once.
func (r *composeRun) stop() { r.stopped.Do(r.stopOnce) }

func (r *composeRun) stopOnce() {
	if err := r.ide.Wait(); err != nil {
		r.t.Errorf("bridge exited with %v; stderr:\n%s", err, r.ide.Stderr())
	}
}

// session plays the IDE's side of the scripted session and checks each step.
func (r *composeRun) session() {
	t, ide, c := r.t, r.ide, r.c
	cwd, _ := json.Marshal(r.ws)

	init := ide.Call("initialize", `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}}`)
	image, _ := json.Marshal(jsonAt(init, "result", "agentCapabilities", "promptCapabilities", "image"))
	if want := fmt.Sprint(!c.has("manifest")); string(image) != want {
		t.Errorf("the IDE was told promptCapabilities.image = %s, want %s (manifest withholds it)", image, want)
	}

	created := ide.Call("session/new", `{"cwd":`+string(cwd)+`,"mcpServers":[]}`)
	sid, _ := jsonAt(created, "result", "sessionId").(string)
	if sid == "" {
		t.Fatalf("session/new answered %s", created)
	}
	quoted, _ := json.Marshal(sid)
	prompt := func(text string) string {
		p, _ := json.Marshal(map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}})
		return ide.Call("session/prompt", string(p))
	}
	reads := 0
	readTurn := func(text string) {
		t.Helper()
		resp := prompt(text)
		if reason := jsonAt(resp, "result", "stopReason"); reason != "end_turn" {
			t.Errorf("%q ended with %s", text, resp)
		}
		reads++
		r.checkReads(reads)
	}

	readTurn("read the notes: the release checklist must stay in mind")
	if c.has("compress") {
		resp := prompt("/bridge-compress")
		if jsonAt(resp, "result", "stopReason") != "end_turn" {
			t.Errorf("/bridge-compress ended with %s", resp)
		}
		if !slices.ContainsFunc(ide.Lines(), func(m string) bool { return strings.Contains(m, "Session checkpointed") }) {
			t.Fatalf("/bridge-compress did not checkpoint; the IDE received:\n%s", ide.Received())
		}
		// The next turn opens a fresh agent session seeded with the summary.
		readTurn("read the notes again after the checkpoint")
		if n := r.agentGot("session/new"); n != 2 {
			t.Errorf("the agent got %d session/new, want 2 (the IDE's and the rollover's)", n)
		}
	}

	// A turn the IDE cancels once the agent is working.
	hung := ide.Request("session/prompt", `{"sessionId":`+string(quoted)+`,"prompt":[{"type":"text","text":"hang"}]}`)
	ide.WaitLine("the agent working", func(m string) bool { return strings.Contains(m, `"text":"working"`) })
	ide.Send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":` + string(quoted) + `}}`)
	if resp := ide.Response(hung); jsonAt(resp, "result", "stopReason") != "cancelled" {
		t.Errorf("the cancelled turn ended with %s", resp)
	}

	// The IDE loads the session again: the history is replayed in its id.
	loaded := ide.Call("session/load", `{"sessionId":`+string(quoted)+`,"cwd":`+string(cwd)+`,"mcpServers":[]}`)
	if jsonAt(loaded, "error") != nil {
		t.Errorf("session/load answered %s", loaded)
	}
	for _, text := range []string{"replayed: the user's request", "replayed: the agent's answer"} {
		if !slices.ContainsFunc(ide.Lines(), func(m string) bool {
			return strings.Contains(m, text) && jsonAt(m, "params", "sessionId") == sid
		}) {
			t.Errorf("the IDE did not get %q in session %s", text, sid)
		}
	}
	readTurn("read once more after the load")

	r.checkIDESessionIDs(sid)
	r.checkAgent()
	if c.has("governance") {
		r.checkAudit(reads)
	}
}

// checkReads checks the n-th read turn: notes.txt reached the IDE and its
// content the agent; .env was denied under the policy, and read without one.
func (r *composeRun) checkReads(n int) {
	t := r.t
	ideReads := count(r.ide.Lines(), func(m string) bool {
		return jsonAt(m, "method") == "fs/read_text_file" && strings.HasSuffix(fmt.Sprint(jsonAt(m, "params", "path")), "/notes.txt")
	})
	if ideReads != n {
		t.Errorf("after %d read turns the IDE got %d reads of notes.txt, want %d; stderr:\n%s", n, ideReads, n, r.ide.Stderr())
	}
	envReads := count(r.ide.Lines(), func(m string) bool {
		return jsonAt(m, "method") == "fs/read_text_file" && strings.HasSuffix(fmt.Sprint(jsonAt(m, "params", "path")), "/.env")
	})
	want := n
	if r.c.has("governance") {
		want = 0
	}
	if envReads != want {
		t.Errorf("after %d read turns the IDE got %d reads of .env, want %d", n, envReads, want)
	}
	// What the agent reported of its reads, in the IDE's session.
	var reports []string
	for _, m := range r.ide.Lines() {
		if strings.HasPrefix(fmt.Sprint(jsonAt(m, "params", "update", "content", "text")), "notes.txt: ") {
			reports = append(reports, m)
		}
	}
	if len(reports) != n {
		t.Fatalf("after %d read turns the IDE got %d reports:\n%s", n, len(reports), r.ide.Received())
	}
	text := fmt.Sprint(jsonAt(reports[n-1], "params", "update", "content", "text"))
	if !strings.HasPrefix(text, "notes.txt: ok release notes") {
		t.Errorf("read turn %d: the agent could not read notes.txt inside the workspace: %s", n, text)
	}
	denied := strings.Contains(text, ".env: error") && !strings.Contains(text, "hunter2")
	if r.c.has("governance") != denied {
		t.Errorf("read turn %d: .env under policy %v: %s", n, r.c.has("governance"), text)
	}
}

// checkIDESessionIDs checks that no message the IDE received names a
// session other than its own.
func (r *composeRun) checkIDESessionIDs(sid string) {
	for _, m := range r.ide.Lines() {
		for _, path := range [][]string{{"params", "sessionId"}, {"result", "sessionId"}} {
			if v := jsonAt(m, path...); v != nil && v != sid {
				r.t.Errorf("the IDE got a message in session %v, its session is %s: %s", v, sid, m)
			}
		}
		if strings.Contains(m, `"agent-2"`) {
			r.t.Errorf("the IDE got the agent's rolled-over session id: %s", m)
		}
	}
}

// checkAgent checks what reached the agent: the manifest's mask on
// initialize, the adapter's settings on every session it opened, and the
// cancel in the session it was working in.
func (r *composeRun) checkAgent() {
	t := r.t
	lines := r.agentLines()
	var sessions []string
	for _, m := range lines {
		switch jsonAt(m, "method") {
		case "initialize":
			terminal := jsonAt(m, "params", "clientCapabilities", "terminal")
			if want := !r.c.has("manifest"); terminal != want {
				t.Errorf("the agent was told terminal = %v, want %v: %s", terminal, want, m)
			}
		case "session/new", "session/load":
			// The Claude adapter hooks the agent when there is something
			// to decide: a policy, or large reads to limit.
			want := r.c.has("adapter") && (r.c.has("governance") || r.c.has("compress"))
			if hooked := bytes.Contains(m, []byte("PreToolUse")); hooked != want {
				t.Errorf("the agent opened a session with the adapter's hook %v, want %v: %s", hooked, want, m)
			}
		case "session/prompt":
			sessions = append(sessions, fmt.Sprint(jsonAt(m, "params", "sessionId")))
		case "session/cancel":
			if len(sessions) == 0 || jsonAt(m, "params", "sessionId") != sessions[len(sessions)-1] {
				t.Errorf("the agent got %s after prompts in %v", m, sessions)
			}
		}
	}
	// The turns after a rollover run in the agent's fresh session.
	want := "agent-1"
	if r.c.has("compress") {
		want = "agent-2"
	}
	if len(sessions) == 0 || sessions[len(sessions)-1] != want {
		t.Errorf("the agent's prompts were in sessions %v, want the last in %s", sessions, want)
	}
	if r.agentGot("session/cancel") != 1 {
		t.Errorf("the agent got %d session/cancel, want 1", r.agentGot("session/cancel"))
	}
	if r.agentGot("session/load") != 1 {
		t.Errorf("the agent got %d session/load, want 1", r.agentGot("session/load"))
	}
}

// checkAudit checks the audit log verifies and holds a deny for each .env
// read and an allow for each notes.txt read.
func (r *composeRun) checkAudit(reads int) {
	t := r.t
	r.stop() // the log is complete once the bridge has stopped
	b := audittest.Verified(t, r.auditLog)
	counts := map[string]int{}
	for line := range bytes.Lines(b) {
		if jsonAt(line, "action") != "fs.read" {
			continue
		}
		path := fmt.Sprint(jsonAt(line, "subject", "path"))
		counts[filepath.Base(path)+" "+fmt.Sprint(jsonAt(line, "policy", "decision"))]++
	}
	for key, want := range map[string]int{"notes.txt allow": reads, ".env deny": reads} {
		if counts[key] != want {
			t.Errorf("the audit log has %d fs.read records %q, want %d (all: %v)", counts[key], key, want, counts)
		}
	}
}

// agentLines returns every line the agent read.
func (r *composeRun) agentLines() [][]byte {
	b, err := os.ReadFile(r.agentLog)
	if err != nil {
		r.t.Fatal(err)
	}
	var out [][]byte
	for line := range bytes.Lines(b) {
		out = append(out, line)
	}
	return out
}

// agentGot counts the agent's requests and notifications of method.
func (r *composeRun) agentGot(method string) int {
	n := 0
	for _, m := range r.agentLines() {
		if jsonAt(m, "method") == method {
			n++
		}
	}
	return n
}

// jsonAt decodes the value at path in the JSON object b, or nil.
func jsonAt[T string | []byte](b T, path ...string) any {
	var v any
	if json.Unmarshal([]byte(b), &v) != nil {
		return nil
	}
	return acpwiretest.At(v, path...)
}

// answerFromDisk is the IDE's answer to the agent's requests: file reads
// from disk, permission requests cancelled.
func answerFromDisk(line string) string {
	id, _ := json.Marshal(jsonAt(line, "id"))
	switch jsonAt(line, "method") {
	case "fs/read_text_file":
		content, err := os.ReadFile(fmt.Sprint(jsonAt(line, "params", "path")))
		if err != nil {
			return `{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32002,"message":"not found"}}`
		}
		body, _ := json.Marshal(string(content))
		return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":` + string(body) + `}}`
	case "session/request_permission":
		return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"outcome":{"outcome":"cancelled"}}}`
	}
	return ""
}

// count is how many of lines satisfy cond.
func count(lines []string, cond func(string) bool) int {
	n := 0
	for _, l := range lines {
		if cond(l) {
			n++
		}
	}
	return n
}
