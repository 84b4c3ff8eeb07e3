package governance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptsWrittenInFlight judges a script the line runs on what the
// agent has asked the IDE to write there and the IDE may not have written
// yet, whatever the path's spelling (relative, "..", through a link to
// its directory, a hard link): while the IDE has not answered a write of
// the script, the line is refused whatever it holds; a write the IDE
// refused is forgotten; one it answered is judged on its content until
// the disk shows it. While a terminal
// whose line may write the script runs (it redirects to it, or runs a
// program whose writes the bridge does not read), a line running the
// script is refused; one writing nothing or another file is not waited
// for.
func TestScriptsWrittenInFlight(t *testing.T) {
	bad, good := ": > GOVERNANCE.md\n", "echo hi\n"
	type write struct {
		path, content string
		answer        string // "" unanswered, "ok", "error"
	}
	rows := []struct {
		name     string
		disk     string // s.sh on disk; "" none
		writes   []write
		terminal string // the line of a terminal still running, "" none
		ended    bool   // the terminal has ended
		hard     bool   // h is a hard link to s.sh
		want     Value
	}{
		{name: "nothing there, write unanswered", writes: []write{{"s.sh", bad, ""}}, want: Deny},
		{name: "harmless on disk, write unanswered", disk: good, writes: []write{{"s.sh", bad, ""}}, want: Deny},
		{name: "spelled with ..", writes: []write{{"sub/../s.sh", bad, ""}}, want: Deny},
		{name: "absolute", writes: []write{{"%ROOT%/s.sh", bad, ""}}, want: Deny},
		{name: "through a linked directory", writes: []write{{"d/s.sh", bad, ""}}, want: Deny},
		{name: "harmless, unanswered", disk: good, writes: []write{{"s.sh", good, ""}}, want: Deny},
		{name: "written twice, first bad", disk: good, writes: []write{{"s.sh", bad, ""}, {"s.sh", good, ""}}, want: Deny},
		{name: "answered, not yet on disk", disk: good, writes: []write{{"s.sh", bad, "ok"}}, want: Deny},
		{name: "answered harmless, not yet on disk", writes: []write{{"s.sh", good, "ok"}}, want: Allow},
		{name: "answered and on disk", disk: good, writes: []write{{"s.sh", good, "ok"}}, want: Allow},
		{name: "answered bad, then harmless on disk", disk: good, writes: []write{{"s.sh", bad, "ok"}, {"s.sh", good, "ok"}}, want: Allow},
		{name: "refused by the IDE", disk: good, writes: []write{{"s.sh", bad, "error"}}, want: Allow},
		{name: "overwritten by a later answered write", disk: good, writes: []write{{"s.sh", bad, "ok"}, {"s.sh", good, "ok"}}, want: Allow},
		{name: "another file", disk: good, writes: []write{{"t.sh", bad, ""}}, want: Allow},
		{name: "terminal writing it", disk: good, terminal: "sleep 1; printf x > s.sh", want: Deny},
		{name: "terminal writing it through a link", disk: good, terminal: "sleep 1; echo x >> d/s.sh", want: Deny},
		{name: "terminal running a program", disk: good, terminal: "python3 gen.py", want: Deny},
		{name: "terminal with a computed redirect", disk: good, terminal: "echo x > $F", want: Deny},
		{name: "terminal with a command substitution", disk: good, terminal: "echo $(python3 gen.py)", want: Deny},
		{name: "terminal changing directory", disk: good, terminal: "cd sub && echo x > ../s.sh", want: Deny},
		{name: "through a hard link", disk: good, hard: true, writes: []write{{"h", bad, ""}}, want: Deny},
		{name: "terminal writing it through a hard link", disk: good, hard: true, terminal: "sleep 1; echo x > h", want: Deny},
		{name: "terminal setting PATH", disk: good, terminal: "PATH=./bin:$PATH echo x > t.sh", want: Deny},
		{name: "terminal redirecting to a tilde", disk: good, terminal: "echo x > ~/t.sh", want: Deny},
		{name: "terminal writing another file", disk: good, terminal: "sleep 1; echo x > t.sh", want: Allow},
		{name: "terminal writing nothing", disk: good, terminal: "echo written", want: Allow},
		{name: "terminal ended", disk: good, terminal: "python3 gen.py", ended: true, want: Allow},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			root := tempTree(t, []string{"sub"}, nil)
			if err := os.Symlink(".", filepath.Join(root, "d")); err != nil {
				t.Fatal(err)
			}
			if r.disk != "" {
				if err := os.WriteFile(filepath.Join(root, "s.sh"), []byte(r.disk), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if r.hard {
				if err := os.Link(filepath.Join(root, "s.sh"), filepath.Join(root, "h")); err != nil {
					t.Fatal(err)
				}
			}
			e := rootPolicyEngine(t, root, "  allow: [Bash]\n")
			for i, w := range r.writes {
				key := string(rune('a' + i))
				p := flightWritePath(strings.ReplaceAll(w.path, "%ROOT%", root), root)
				if !e.flight.addWrite(key, p, w.content, describeWrite(key, w.path)) {
					t.Fatal("write not kept")
				}
				if w.answer != "" {
					e.flight.writeDone(key, w.answer == "ok")
				}
			}
			if r.terminal != "" {
				term := flightTerm{what: "the terminal/create request 9"}
				term.writes, term.anyFile = lineWrites(Request{Action: ActionTerminalCreate, Command: r.terminal, Cwd: root})
				e.flight.addTerminal("t", term)
				e.flight.terminalCreated("t", terminalKey("s1", "term-1"))
				if r.ended {
					e.flight.terminalEnded(terminalKey("s1", "term-1"))
				}
			}
			// Not denied: bash running a file is asked about, ./s.sh allowed by Bash.
			bash, run := r.want, r.want
			if r.want != Deny {
				bash, run = RequireApproval, Allow
			}
			checkCommandRows(t, e, root, []commandRow{{"bash s.sh", bash}, {"./s.sh", run}})
		})
	}
}

// TestEnforceScriptWrittenInFlight: an fs/write_text_file of s.sh the IDE
// has not answered, then a terminal/create running "bash s.sh": the
// terminal is refused, saying which write, and the refusal recorded; once
// the IDE answered the write with an error, the line passes; so it does
// for another session's write of the file. A terminal
// still running a program (created, not waited for) refuses a line
// running a script until its wait_for_exit is answered.
func TestEnforceScriptWrittenInFlight(t *testing.T) {
	sr := newScriptRuns(t, "s1")
	h, root := sr.h, sr.root
	refused := func(id int, why string) { t.Helper(); sr.refused(t, fmt.Sprint(id), why) }
	passed := func(id int) { t.Helper(); sr.passed(t, fmt.Sprint(id)) }

	h.agent(`{"jsonrpc":"2.0","id":10,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":": > GOVERNANCE.md\n"}}`, filepath.Join(root, "s.sh"))
	if m := h.nextAtIDE(); m["method"] != "fs/write_text_file" {
		t.Fatalf("IDE got %v, want the write", m)
	}
	refused(11, "the fs/write_text_file request 10 writing")
	if len(h.rec.find(ActionTerminalCreate, "deny")) == 0 {
		t.Error("the refusal is not recorded")
	}
	h.ide(`{"jsonrpc":"2.0","id":10,"error":{"code":-32603,"message":"no"}}`)
	h.nextAtAgent()
	passed(12)
	// Terminal 12 runs until its wait_for_exit is answered.
	h.ide(`{"jsonrpc":"2.0","id":12,"result":{"terminalId":"term-1"}}`)
	h.nextAtAgent()
	refused(13, "has not finished")
	h.agent(`{"jsonrpc":"2.0","id":14,"method":"terminal/wait_for_exit","params":{"sessionId":"s1","terminalId":"term-1"}}`)
	h.nextAtIDE()
	h.ide(`{"jsonrpc":"2.0","id":14,"result":{"exitCode":0}}`)
	h.nextAtAgent()
	// Another session's write of the same file, spelled with "..".
	h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, root)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s2"}}`)
	h.nextAtIDE()
	h.agent(`{"jsonrpc":"2.0","id":16,"method":"fs/write_text_file","params":{"sessionId":"s2","path":%q,"content":"echo hi\n"}}`, filepath.Join(root, "sub", "..", "s.sh"))
	if m := h.nextAtIDE(); m["method"] != "fs/write_text_file" {
		t.Fatalf("IDE got %v, want the write", m)
	}
	refused(17, "the fs/write_text_file request 16 writing")
	h.ide(`{"jsonrpc":"2.0","id":16,"error":{"code":-32603,"message":"no"}}`)
	h.nextAtAgent()
	passed(18)
}

// TestArchiveWrittenInFlight: an archive or diff a line extracts or
// applies is read to decide what the line writes; while the agent's
// write of it is unanswered, or a terminal whose line may write it still
// runs, the line is refused. With nothing in flight, the file not there
// has names that are not known, and the line is asked about (the policy
// lies outside the tree, which holds none of the bridge's own files).
func TestArchiveWrittenInFlight(t *testing.T) {
	lines := []string{"patch -p1 -i x.patch", "git apply x.patch", "tar -xf x.tar", "unzip x.tar"}
	for _, inFlight := range []string{"", "write", "terminal"} {
		root := tempTree(t, nil, nil)
		pol := filepath.Join(t.TempDir(), "GOVERNANCE.md")
		e := NewEngine(writePolicy(t, pol, "  allow: [Bash]\n"), EngineOptions{Roots: []string{root},
			Protected: []ProtectedPath{{Path: pol, What: "the governance policy"}}})
		for _, n := range []string{"x.patch", "x.tar"} {
			switch inFlight {
			case "write":
				e.flight.addWrite(n, filepath.Join(root, n), "--- a/GOVERNANCE.md\n+++ b/GOVERNANCE.md\n", describeWrite(n, n))
			case "terminal":
				term := flightTerm{what: "the terminal/create request 9"}
				term.writes, term.anyFile = lineWrites(Request{Action: ActionTerminalCreate, Command: "sleep 1; cat a > " + n, Cwd: root})
				e.flight.addTerminal(n, term)
			}
		}
		for _, l := range lines {
			d := e.Decide(Request{Action: ActionTerminalCreate, Command: l, Cwd: root, Paths: []string{root}})
			if denied := d.Value == Deny; denied != (inFlight != "") {
				t.Errorf("%s in flight: %q: %v (%s)", inFlight, l, d.Value, d.Reason)
			}
		}
	}
}

// TestWrittenPathAsTheKernelReadsIt: a write of "l/../s.sh", l a link to
// sub/in, writes sub/s.sh where the IDE opens the path as given (the
// kernel takes ".." after the link) and s.sh where it cleans the path
// first: it is in flight for both, and not for another file; a write
// through a link to a file not there yet is in flight for the link's
// target.
func TestWrittenPathAsTheKernelReadsIt(t *testing.T) {
	root := tempTree(t, []string{"sub/in"}, nil)
	for l, to := range map[string]string{"l": "sub/in", "dangling": "sub/new.sh"} {
		if err := os.Symlink(to, filepath.Join(root, l)); err != nil {
			t.Fatal(err)
		}
	}
	var f inFlight
	f.addWrite("1", flightWritePath("l/../s.sh", root), "x", "write 1")
	f.addWrite("2", flightWritePath(root+"/dangling", root), "x", "write 2")
	for p, want := range map[string]string{
		root + "/sub/s.sh":    "write 1",
		root + "/s.sh":        "write 1",
		root + "/sub/in/s.sh": "",
		root + "/sub/new.sh":  "write 2",
		root + "/dangling":    "write 2",
	} {
		if got := f.busy(p); got != want {
			t.Errorf("busy(%s) = %q, want %q", p, got, want)
		}
	}
}

// TestFlightAnswerSpelledOtherwise: the IDE answers under its own spelling
// of the agent's id (the TypeScript SDK writes 10.0 back as 10, "\u0061"
// as "a"). The answer still ends the request it answers: a write answered
// with an error no longer keeps "bash s.sh" refused, and a terminal whose
// create was answered so ends with its wait_for_exit.
func TestFlightAnswerSpelledOtherwise(t *testing.T) {
	sr := newScriptRuns(t, "s1")
	h, root := sr.h, sr.root
	refused := func(id, why string) { t.Helper(); sr.refused(t, id, why) }
	passed := func(id string) { t.Helper(); sr.passed(t, id) }
	h.agent(`{"jsonrpc":"2.0","id":10.0,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":": > GOVERNANCE.md\n"}}`, filepath.Join(root, "s.sh"))
	h.nextAtIDE()
	refused(`11`, "the fs/write_text_file request 10.0 writing")
	h.ide(`{"jsonrpc":"2.0","id":10,"error":{"code":-32603,"message":"no"}}`)
	h.nextAtAgent()
	passed(`"\u0061"`)
	h.ide(`{"jsonrpc":"2.0","id":"a","result":{"terminalId":"term-1"}}`)
	h.nextAtAgent()
	refused(`13`, "has not finished")
	h.agent(`{"jsonrpc":"2.0","id":14,"method":"terminal/wait_for_exit","params":{"sessionId":"s1","terminalId":"term-1"}}`)
	h.nextAtIDE()
	h.ide(`{"jsonrpc":"2.0","id":14,"result":{"exitCode":0}}`)
	h.nextAtAgent()
	passed(`15`)
}

// TestFlightRequestAndTerminalKeysApart: a terminal/create waiting for the
// IDE's answer is kept by its request's id, a created terminal by its
// session and terminal id; the two never meet, whatever ids the agent
// (the session's, the request's) and the IDE (the terminal's) choose: a
// session "req" whose terminal "1" ends does not end the unanswered
// request 1 writing s.sh.
func TestFlightRequestAndTerminalKeysApart(t *testing.T) {
	sr := newScriptRuns(t, "req")
	h, root := sr.h, sr.root
	// forwarded waits for the IDE to get the agent's terminal/create,
	// the person allowing it if asked.
	forwarded := func() {
		t.Helper()
		for {
			m := h.nextAtIDE()
			switch m["method"] {
			case "terminal/create":
				return
			case "session/request_permission":
				id, _ := json.Marshal(m["id"])
				h.ide(`{"jsonrpc":"2.0","id":%s,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`, id)
			default:
				t.Fatalf("IDE got %v, want the terminal/create", m)
			}
		}
	}
	h.agent(`{"jsonrpc":"2.0","id":5,"method":"terminal/create","params":{"sessionId":"req","command":"true","cwd":%q}}`, root)
	forwarded()
	h.ide(`{"jsonrpc":"2.0","id":5,"result":{"terminalId":"1"}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":1,"method":"terminal/create","params":{"sessionId":"req","command":"printf 'echo hi' > s.sh","cwd":%q}}`, root)
	forwarded()
	h.agent(`{"jsonrpc":"2.0","id":6,"method":"terminal/wait_for_exit","params":{"sessionId":"req","terminalId":"1"}}`)
	h.nextAtIDE()
	h.ide(`{"jsonrpc":"2.0","id":6,"result":{"exitCode":0}}`)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":7,"method":"terminal/create","params":{"sessionId":"req","command":"bash","args":["s.sh"],"cwd":%q}}`, root)
	if m := h.nextAtIDE(); get(m, "params", "update", "sessionUpdate") != "agent_message_chunk" {
		t.Fatalf("IDE got %v, want the person told bash s.sh is refused while request 1 may still write s.sh", m)
	}
	if m := h.nextAtAgent(); !strings.Contains(fmt.Sprint(get(m, "error", "message")), "has not finished") {
		t.Fatalf("agent got %v, want bash s.sh refused while request 1 may still write s.sh", m)
	}
}

// scriptRuns is a session under a policy allowing Bash and Edit, in which
// the agent runs "bash s.sh" (terminal/create) while a write of s.sh, or a
// terminal that may write it, is or is not in flight.
type scriptRuns struct {
	h    *harness
	root string
	sid  string
}

// newScriptRuns opens the session sid in a fresh workspace.
func newScriptRuns(t *testing.T, sid string) *scriptRuns {
	t.Helper()
	root := tempTree(t, nil, nil)
	e := rootPolicyEngine(t, root, "  allow: [Bash, Edit]\n")
	h := newHarness(t, EnforceOptions{Engine: e})
	h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, root)
	h.nextAtAgent()
	h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":%q}}`, sid)
	h.nextAtIDE()
	return &scriptRuns{h: h, root: root, sid: sid}
}

// create sends the agent's terminal/create of "bash s.sh" with id, a JSON
// value as the agent spells it.
func (sr *scriptRuns) create(id string) {
	sr.h.agent(`{"jsonrpc":"2.0","id":%s,"method":"terminal/create","params":{"sessionId":%q,"command":"bash","args":["s.sh"],"cwd":%q}}`, id, sr.sid, sr.root)
}

// refused wants the line refused, saying why, and the person told.
func (sr *scriptRuns) refused(t *testing.T, id, why string) {
	t.Helper()
	sr.create(id)
	if m := sr.h.nextAtAgent(); !strings.Contains(fmt.Sprint(get(m, "error", "message")), why) {
		t.Fatalf("agent got %v, want a refusal saying %q", m, why)
	}
	if m := sr.h.nextAtIDE(); get(m, "params", "update", "sessionUpdate") != "agent_message_chunk" {
		t.Fatalf("IDE got %v, want the person told", m)
	}
}

// passed wants the line asked about (bash running a file: no rule
// vouches for it), allowed, and forwarded to the IDE.
func (sr *scriptRuns) passed(t *testing.T, id string) {
	t.Helper()
	sr.create(id)
	sr.h.wantAsked("allow")
	if m := sr.h.nextAtIDE(); m["method"] != "terminal/create" {
		t.Fatalf("IDE got %v, want the terminal/create", m)
	}
}
