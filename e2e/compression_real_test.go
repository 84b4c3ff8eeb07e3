package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// The scenarios below drive real Claude Code (claude-agent-acp) through the
// bridge with compression on, against the fake model server, to check what
// internal/compress tests only with scripted agents: quick commands are
// answered by the bridge and never reach the model, and /bridge-compress
// rolls the session over to a fresh downstream session seeded with the
// Session Summary while the IDE keeps its session id.

// compressedRun starts Claude through the bridge with compression on; the
// cache and the compression log live in the workspace base. It returns the
// run and the compression log's path.
func compressedRun(t *testing.T, s *suiteEnv, w *workspace, steps []fakemodel.Step, prompts ...string) (*run, string) {
	t.Helper()
	clog := filepath.Join(w.base, "c.jsonl")
	os.Remove(clog)
	r := start(t, s, &claudeAgent, w, runOptions{
		name:   "compress",
		bridge: true,
		bridgeArgs: []string{"--compress", "on", "--cache-dir", filepath.Join(w.base, "cache"),
			"--compress-log", clog},
		script: fakemodel.Script{Steps: steps},
		client: clientScript{Permission: "allow", Prompts: textPrompts(prompts...)},
	})
	return r, clog
}

// tsLine is a transcript line with its timestamp.
type tsLine struct {
	Ts  time.Time       `json:"ts"`
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

func readTsTranscript(t *testing.T, path string) []tsLine {
	t.Helper()
	var out []tsLine
	for _, l := range readJSONL[tsLine](t, path) {
		if l.Msg != nil {
			out = append(out, l)
		}
	}
	return out
}

// rpc is the part of a JSON-RPC message the scenarios read.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID string `json:"sessionId"`
		Prompt    []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"prompt"`
		Update struct {
			SessionUpdate     string `json:"sessionUpdate"`
			AvailableCommands []struct {
				Name string `json:"name"`
			} `json:"availableCommands"`
			// Content is a content block in message chunks, an array
			// in tool calls.
			Content json.RawMessage `json:"content"`
		} `json:"update"`
	} `json:"params"`
	Result *struct {
		SessionID  string `json:"sessionId"`
		StopReason string `json:"stopReason"`
	} `json:"result"`
}

func parseRPC(t *testing.T, b []byte) rpc {
	t.Helper()
	var m rpc
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("transcript message %s: %v", b, err)
	}
	return m
}

// promptText joins the text blocks of a session/prompt.
func (m rpc) promptText() string {
	var parts []string
	for _, b := range m.Params.Prompt {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// commandTurn is one quick command as the client saw it.
type commandTurn struct {
	sent, answered time.Time
	stopReason     string
	text           string // agent_message_chunk text received in between
	sessionID      string
}

// findCommandTurn locates the session/prompt whose text is cmd in the client
// transcript, its response and the message chunks in between.
func findCommandTurn(t *testing.T, ls []tsLine, cmd string) commandTurn {
	t.Helper()
	var ct commandTurn
	var id json.RawMessage
	var text strings.Builder
	for _, l := range ls {
		m := parseRPC(t, l.Msg)
		switch {
		case id == nil && l.Dir == toAgent && m.Method == "session/prompt" && strings.TrimSpace(m.promptText()) == cmd:
			id, ct.sent, ct.sessionID = m.ID, l.Ts, m.Params.SessionID
		case id != nil && l.Dir == toClient && m.Method == "session/update" && m.Params.Update.SessionUpdate == "agent_message_chunk":
			var c struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(m.Params.Update.Content, &c)
			text.WriteString(c.Text)
		case id != nil && l.Dir == toClient && m.Method == "" && string(m.ID) == string(id) && m.Result != nil:
			ct.answered, ct.stopReason, ct.text = l.Ts, m.Result.StopReason, text.String()
			return ct
		}
	}
	t.Fatalf("the client transcript has no answered session/prompt %q", cmd)
	return ct
}

// compressionEvents reads the event types of the compression log.
func compressionEvents(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the compression log: %v", err)
	}
	var out []string
	for _, ln := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if ln == "" {
			continue
		}
		var e struct {
			Event string `json:"event"`
		}
		if err := json.Unmarshal([]byte(ln), &e); err != nil {
			t.Fatalf("compression log line %q: %v", ln, err)
		}
		out = append(out, e.Event)
	}
	return out
}

// TestCompressionRealQuickCommands: the IDE's command list holds the
// bridge's quick commands next to Claude's own, and /bridge-context is
// answered by the bridge as a normal turn that never reaches the agent: no
// model request arrives between the command and its answer, no request body
// carries it, and the next real turn gets the next script step.
func TestCompressionRealQuickCommands(t *testing.T) {
	s := needSuite(t)
	w := newWorkspace(t)
	const cmd = "/bridge-context"
	r, _ := compressedRun(t, s, w,
		[]fakemodel.Step{fakemodel.Text("First answer QC-ONE."), fakemodel.Text("Second answer QC-TWO.")},
		"Say something (QC-PROMPT-1).", cmd, "Say more (QC-PROMPT-2).")
	sum := r.mustSucceed()
	r.noLeftovers()
	if want := []string{"end_turn", "end_turn", "end_turn"}; !slices.Equal(sum.StopReasons, want) {
		t.Errorf("stop reasons %v, want %v", sum.StopReasons, want)
	}

	ls := readTsTranscript(t, r.transcript)
	// The IDE's command list: the bridge's merged with Claude's.
	merged := false
	for _, l := range ls {
		m := parseRPC(t, l.Msg)
		if l.Dir != toClient || m.Params.Update.SessionUpdate != "available_commands_update" {
			continue
		}
		var names []string
		for _, c := range m.Params.Update.AvailableCommands {
			names = append(names, c.Name)
		}
		bridge := slices.Contains(names, "bridge-context") && slices.Contains(names, "bridge-compress") &&
			slices.Contains(names, "bridge-recover") && slices.Contains(names, "bridge-intent") && slices.Contains(names, "bridge-log")
		if bridge && slices.Contains(names, "compact") {
			merged = true
			t.Logf("merged command list (%d commands): %v", len(names), names)
			break
		}
	}
	if !merged {
		t.Errorf("no available_commands_update holds both the bridge's five commands and Claude's compact")
	}

	ct := findCommandTurn(t, ls, cmd)
	if ct.stopReason != "end_turn" {
		t.Errorf("%s: stopReason %q, want end_turn", cmd, ct.stopReason)
	}
	if ct.sessionID != sum.SessionID {
		t.Errorf("%s sent in session %q, client's session is %q", cmd, ct.sessionID, sum.SessionID)
	}
	if !strings.Contains(ct.text, "Context:") {
		t.Errorf("%s: the answer has no context status: %q", cmd, ct.text)
	}
	t.Logf("%s answered in %v: %q", cmd, ct.answered.Sub(ct.sent), ct.text)

	// Nothing of the command reached the model.
	var inWindow []string
	for _, req := range r.model.Requests() {
		if strings.Contains(string(req.Body), "bridge-context") {
			t.Errorf("model request %d (%s) carries the quick command", req.Seq, req.Kind)
		}
		if !req.Time.Before(ct.sent) && !req.Time.After(ct.answered) {
			inWindow = append(inWindow, req.Kind)
		}
	}
	if len(inWindow) > 0 {
		t.Errorf("the model received %d requests (%v) between %s and its answer", len(inWindow), inWindow, cmd)
	}
	main := r.model.MainRequests()
	if len(main) != 2 || r.model.StepsServed() != 2 {
		t.Errorf("model: %d main requests, %d steps served; want 2 and 2 (one per real turn)", len(main), r.model.StepsServed())
	}
	if len(main) > 0 && !strings.Contains(string(main[len(main)-1].Body), "QC-PROMPT-2") {
		t.Errorf("the last model request is not the turn after the command")
	}
	// Nor did it reach the agent: the bridge's own record of what it sent.
	for _, m := range messages(readTranscript(t, r.record), toAgent) {
		if strings.Contains(m, "bridge-context") {
			t.Errorf("the bridge forwarded the quick command to the agent: %.200s", m)
		}
	}
}

// summaryIn returns the text from "## Session Summary" to the end of the
// text block holding it, among the messages of a model request, and the
// number of assistant messages in it.
func summaryIn(t *testing.T, req fakemodel.Request) (string, int) {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatalf("model request %d: %v", req.Seq, err)
	}
	assistant := 0
	found := ""
	for _, m := range body.Messages {
		if m.Role == "assistant" {
			assistant++
		}
		var texts []string
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			texts = append(texts, s)
		} else {
			var blocks []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			_ = json.Unmarshal(m.Content, &blocks)
			for _, b := range blocks {
				texts = append(texts, b.Text)
			}
		}
		for _, x := range texts {
			if i := strings.Index(x, "## Session Summary"); i >= 0 && found == "" {
				found = x[i:]
			}
		}
	}
	return found, assistant
}

// TestCompressionRealRollover: a scripted session with Claude (a Write of a
// workspace file the client allows, a Bash command whose output carries an
// error code, several user instructions with distinct markers), then
// /bridge-compress. The next prompt is answered under the session id the
// client got from session/new, reaches the model as the first turn of a
// fresh downstream session, and carries the Session Summary with the
// intent, every earlier instruction, the edited path and the error code, in
// at most 2000 o200k tokens. The compression log has TIER_3 and ROLLOVER.
func TestCompressionRealRollover(t *testing.T) {
	s := needSuite(t)
	w := newWorkspace(t)
	a := &claudeAgent
	edited := w.path("notes/plan.md")
	const (
		errCode  = "E4711" // in a Bash tool result
		textCode = "W9021" // in agent text only
	)
	prompts := []string{
		"Create notes/plan.md describing the parser rewrite (INTENT-K9Q2).",
		"Run the build check and tell me what fails (INSTR-B7M3).",
		"Keep the public API unchanged (INSTR-C5X8).",
		"/bridge-compress",
		"Now continue with the fix (INSTR-D2W6).",
	}
	steps := []fakemodel.Step{
		a.write(edited, "# Parser rewrite\n\nPlan: tokenizer first.\n"),
		fakemodel.Text("Created notes/plan.md."),
		a.shell("echo 'build failed: error " + errCode + " widget overflow'; exit 3"),
		fakemodel.Text("The build fails with " + errCode + "."),
		// An error code only the agent's own text mentions.
		fakemodel.Text("Understood, the API stays as it is. The linter also reports " + textCode + "."),
		fakemodel.Text("Continuing the fix in the fresh session."),
	}
	r, clog := compressedRun(t, s, w, steps, prompts...)
	sum := r.mustSucceed()
	r.noLeftovers()
	if want := []string{"end_turn", "end_turn", "end_turn", "end_turn", "end_turn"}; !slices.Equal(sum.StopReasons, want) {
		t.Errorf("stop reasons %v, want %v", sum.StopReasons, want)
	}
	if b, err := os.ReadFile(edited); err != nil || !strings.Contains(string(b), "Parser rewrite") {
		t.Fatalf("precondition: Claude's Write did not create %s (%v); the scenario tests nothing", edited, err)
	}
	if sum.Permissions == 0 {
		t.Errorf("precondition: the client was asked no permission (Write and Bash)")
	}

	ls := readTsTranscript(t, r.transcript)
	ct := findCommandTurn(t, ls, "/bridge-compress")
	if ct.stopReason != "end_turn" || !strings.Contains(ct.text, "checkpointed") {
		t.Fatalf("/bridge-compress: stopReason %q, answer %q; want end_turn and a checkpoint note", ct.stopReason, ct.text)
	}
	t.Logf("/bridge-compress answered: %q", ct.text)

	// (i) The turn after the rollover keeps the IDE's session id both ways.
	var newSessionID string
	var last rpc
	var lastAt int
	for i, l := range ls {
		m := parseRPC(t, l.Msg)
		if l.Dir == toClient && m.Result != nil && m.Result.SessionID != "" && newSessionID == "" {
			newSessionID = m.Result.SessionID
		}
		if l.Dir == toAgent && m.Method == "session/prompt" {
			last, lastAt = m, i
		}
	}
	if newSessionID == "" || newSessionID != sum.SessionID {
		t.Fatalf("session/new gave %q, client summary says %q", newSessionID, sum.SessionID)
	}
	if !strings.Contains(last.promptText(), "INSTR-D2W6") || last.Params.SessionID != newSessionID {
		t.Errorf("last prompt %q in session %q; want INSTR-D2W6 in %q", last.promptText(), last.Params.SessionID, newSessionID)
	}
	for _, l := range ls[lastAt+1:] {
		m := parseRPC(t, l.Msg)
		if l.Dir == toClient && m.Method == "session/update" && m.Params.SessionID != newSessionID {
			// The bridge maps the new downstream id only once its own
			// session/new call has returned; an update the agent sends
			// right after that response can be forwarded first.
			t.Errorf("after the rollover the client got a %s update for session %q, not its own %q",
				m.Params.Update.SessionUpdate, m.Params.SessionID, newSessionID)
		}
	}

	// What the bridge sent the agent (its --record shows the agent side):
	// a second session/new with the first one's cwd and MCP servers, and
	// the last prompt under the new downstream session's id.
	type newParams struct {
		Cwd        string          `json:"cwd"`
		McpServers json.RawMessage `json:"mcpServers"`
	}
	var news []newParams
	var downIDs []string
	for _, m := range messages(readTranscript(t, r.record), toAgent) {
		var x struct {
			Method string `json:"method"`
			Params struct {
				newParams
				SessionID string `json:"sessionId"`
			} `json:"params"`
		}
		if err := json.Unmarshal([]byte(m), &x); err != nil {
			t.Fatalf("bridge record: %v", err)
		}
		switch x.Method {
		case "session/new":
			news = append(news, x.Params.newParams)
		case "session/prompt":
			if !slices.Contains(downIDs, x.Params.SessionID) {
				downIDs = append(downIDs, x.Params.SessionID)
			}
		}
	}
	t.Logf("downstream sessions prompted, in order: %v", downIDs)
	if len(news) != 2 || news[1].Cwd != news[0].Cwd || string(news[1].McpServers) != string(news[0].McpServers) {
		t.Errorf("session/new sent to the agent: %+v; want two with the same cwd and MCP servers", news)
	}
	if len(downIDs) != 2 || downIDs[0] != newSessionID || downIDs[1] == newSessionID {
		t.Errorf("downstream sessions prompted %v; want the IDE's %q, then a new one", downIDs, newSessionID)
	}

	// (ii) The model's request for that turn: first turn of a fresh
	// conversation, carrying the summary.
	main := r.model.MainRequests()
	if len(main) == 0 {
		t.Fatal("no main model requests")
	}
	req := main[len(main)-1]
	if !strings.Contains(string(req.Body), "INSTR-D2W6") {
		t.Fatalf("the last model request is not the turn after the rollover")
	}
	summary, assistant := summaryIn(t, req)
	if assistant != 0 || strings.Contains(string(req.Body), "Created notes/plan.md.") {
		t.Errorf("the turn after the rollover reached the model with %d assistant messages or earlier turns; a fresh downstream session has none", assistant)
	}
	if summary == "" {
		t.Fatalf("the request after the rollover carries no Session Summary:\n%.3000s", req.Body)
	}
	for _, want := range []string{prompts[0], "INSTR-B7M3", "INSTR-C5X8", edited, errCode} {
		if !strings.Contains(summary, want) {
			t.Errorf("the Session Summary lacks %q", want)
		}
	}
	// Error codes the agent only wrote in its text are not collected
	// (internal/compress records facts from user messages and tool
	// results): measured, not required.
	t.Logf("error code seen only in agent text (%s) kept in the summary: %v", textCode, strings.Contains(summary, textCode))
	// (iii) Its size.
	n := fakemodel.CountTokens(summary)
	t.Logf("Session Summary that reached the model: %d o200k tokens", n)
	if n > 2000 {
		t.Errorf("Session Summary is %d o200k tokens, over 2000", n)
	}
	if t.Failed() {
		t.Logf("summary:\n%s", summary)
	}

	evs := compressionEvents(t, clog)
	t.Logf("compression events: %v", evs)
	if !slices.Contains(evs, "TIER_3") || !slices.Contains(evs, "ROLLOVER") {
		t.Errorf("compression log events %v; want TIER_3 and ROLLOVER", evs)
	}
}
