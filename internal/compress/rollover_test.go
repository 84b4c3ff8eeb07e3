package compress

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// fillContext has the agent report usage at pct percent of a 200k window
// during turn id, then end it; it returns what the IDE received.
func (h *harness) fillContext(id int, session string, pct int) [][]byte {
	h.t.Helper()
	h.agent(update(session, map[string]any{"sessionUpdate": "usage_update", "used": pct * 2000, "size": 200000}))
	h.agent(endTurn(id))
	return h.untilIDE(isResponse(fmt.Sprint(id)))
}

// checkpointedHarness is a sessionHarness with a 2,000-token context whose
// IDE has had a turn of work done in s1 and then sent /bridge-compress; it
// returns the harness and what the IDE received up to the command's answer.
// The next prompt in s1 rolls over to a fresh agent session.
func checkpointedHarness(t *testing.T) (*harness, [][]byte) {
	t.Helper()
	h := sessionHarness(t, Config{ContextSize: 2000})
	h.prompt(2, "s1", "Write a CSV exporter in export/csv.go")
	return h, h.checkpoint(2, "s1", "Working on the exporter. ")
}

// checkpoint ends the turn of the IDE's prompt id in s1 with a long answer
// of the agent's (say, 200 times, in down: the agent's id for s1) and
// sends /bridge-compress as prompt id+1; it returns what the IDE received
// up to the command's answer. With a 2,000-token context the next prompt
// in s1 rolls over to a fresh agent session.
func (h *harness) checkpoint(id int, down, say string) [][]byte {
	h.t.Helper()
	h.agent(agentSays(down, strings.Repeat(say, 200)))
	h.agent(endTurn(id))
	h.untilIDE(isResponse(fmt.Sprint(id)))
	h.ide(promptMsg(id+1, "s1", textBlock("/bridge-compress")))
	return h.untilIDE(isResponse(fmt.Sprint(id + 1)))
}

// rolloverAsked sends the IDE's prompt id in session with text, which is
// due to roll over, and returns the rollover's session/new the agent gets
// and that request's id.
func (h *harness) rolloverAsked(id int, session, text string) (req, rid []byte) {
	h.t.Helper()
	h.ide(promptMsg(id, session, textBlock(text)))
	req = h.readAgent()
	if str(req, "method") != "session/new" {
		h.t.Fatalf("agent got %s, want the rollover's session/new", req)
	}
	rid, _ = rawjson.Get(req, "id")
	return req, rid
}

func notes(msgs [][]byte) string {
	var b strings.Builder
	for _, m := range msgs {
		if str(m, "params", "update", "sessionUpdate") == "agent_message_chunk" {
			b.WriteString(str(m, "params", "update", "content", "text"))
		}
	}
	return b.String()
}

func TestRolloverKeepsIDESessionID(t *testing.T) {
	h := newHarness(t, Config{})
	h.newSession(1, "/repo", "down-1")
	h.prompt(2, "down-1", "Refactor internal/parser to stream tokens")
	h.agent(update("down-1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "e1", "title": "Edit parser.go", "kind": "edit", "status": "completed",
		"locations": []any{map[string]any{"path": "/repo/internal/parser/parser.go"}}}))
	h.readIDE()
	got := h.fillContext(2, "down-1", 90)
	note := notes(got)
	if !strings.Contains(note, "CRITICAL") || !strings.Contains(note, "conversations/down-1_full.md") {
		t.Fatalf("no checkpoint note at CRITICAL: %q", note)
	}

	// The next prompt goes to a fresh downstream session.
	req, id := h.rolloverAsked(3, "down-1", "now add tests")
	if str(req, "params", "cwd") != "/repo" || str(req, "params", "mcpServers", "0", "command") != "/bin/mcp-fs" {
		t.Errorf("session/new does not repeat cwd and mcpServers: %s", req)
	}
	h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"down-2"}}`, id))
	pr := h.readAgent()
	if str(pr, "method") != "session/prompt" || str(pr, "params", "sessionId") != "down-2" {
		t.Fatalf("agent got %s, want the prompt in down-2", pr)
	}
	summary := str(pr, "params", "prompt", "0", "text")
	for _, want := range []string{"## Session Summary", "Refactor internal/parser to stream tokens", "/repo/internal/parser/parser.go"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary block lacks %q", want)
		}
	}
	if str(pr, "params", "prompt", "1", "text") != "now add tests" {
		t.Errorf("user's prompt not after the summary: %s", pr)
	}
	if n := notes([][]byte{h.readIDE()}); !strings.Contains(n, "fresh agent session") {
		t.Errorf("no visible rollover note: %q", n)
	}

	// From now on ids are translated both ways.
	h.agent(agentSays("down-2", "Adding tests to /repo/internal/parser/parser_test.go"))
	if m := h.readIDE(); str(m, "params", "sessionId") != "down-1" {
		t.Errorf("update reached the IDE as %s", str(m, "params", "sessionId"))
	}
	h.agent(`{"jsonrpc":"2.0","id":40,"method":"session/request_permission","params":{"sessionId":"down-2","toolCall":{"toolCallId":"w1","title":"Write parser_test.go"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}}`)
	if m := h.readIDE(); str(m, "params", "sessionId") != "down-1" || str(m, "method") != "session/request_permission" {
		t.Errorf("permission request reached the IDE as %s", m)
	}
	h.ide(`{"jsonrpc":"2.0","id":40,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`)
	h.readAgent()
	h.ide(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"down-1"}}`)
	if m := h.readAgent(); str(m, "params", "sessionId") != "down-2" {
		t.Errorf("cancel reached the agent as %s", m)
	}
	h.agent(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"cancelled"}}`)
	h.untilIDE(isResponse("3"))
	h.ide(promptMsg(4, "down-1", textBlock("continue")))
	if m := h.readAgent(); str(m, "params", "sessionId") != "down-2" {
		t.Errorf("next turn reached the agent as %s", str(m, "params", "sessionId"))
	}
	h.wantEvent("ROLLOVER")
	h.wantEvent("TIER_3")
}

func TestCompressCommandRollsOverOnNextPrompt(t *testing.T) {
	h, got := checkpointedHarness(t)
	if n := notes(got); !strings.Contains(n, "Session checkpointed") {
		t.Fatalf("compress answer: %q", n)
	}
	h.AgentGetsNothingMore()
	h.rolloverAsked(4, "s1", "go on")
}

func TestCompressRefusedWhenSummaryWouldNotSave(t *testing.T) {
	h := sessionHarness(t, Config{})
	h.prompt(2, "s1", "tiny")
	h.agent(endTurn(2))
	h.untilIDE(isResponse("2"))
	h.ide(promptMsg(3, "s1", textBlock("/bridge-compress")))
	if n := notes(h.untilIDE(isResponse("3"))); !strings.Contains(n, "Compression refused") || !strings.Contains(n, "not smaller") {
		t.Fatalf("answer: %q", n)
	}
	// No rollover is scheduled: the next prompt goes to the same session.
	h.ide(promptMsg(4, "s1", textBlock("next")))
	if m := h.readAgent(); str(m, "method") != "session/prompt" || str(m, "params", "sessionId") != "s1" {
		t.Fatalf("agent got %s", m)
	}
	h.wantEvent("SUMMARY_REJECTED")
}

func TestAgentCompactAtRed(t *testing.T) {
	h := compactingTurn(t)
	if n := notes(h.fillContext(2, "s1", 80)); !strings.Contains(n, "/compact will run") {
		t.Fatalf("note: %q", n)
	}
	h.ide(promptMsg(3, "s1", textBlock("next step")))
	c := h.readAgent()
	text := str(c, "params", "prompt", "0", "text")
	if str(c, "method") != "session/prompt" || !strings.HasPrefix(text, "/compact ") || !strings.Contains(text, "Port the build to Bazel") {
		t.Fatalf("agent got %s, want /compact with the intent", c)
	}
	id, _ := rawjson.Get(c, "id")
	h.agent(agentSays("s1", "Compacted."))
	h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"stopReason":"end_turn"}}`, id))
	if m := h.readAgent(); str(m, "params", "prompt", "0", "text") != "next step" {
		t.Fatalf("agent got %s, want the user's prompt after compaction", m)
	}
	h.wantEvent("AGENT_COMPACT")
}

func TestGoalDriftReportedAfterRollover(t *testing.T) {
	h := sessionHarness(t, Config{})
	h.prompt(2, "s1", "Fix the flaky retry test in internal/retry")
	h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "e1", "title": "Edit retry.go", "kind": "edit", "status": "completed",
		"content": []any{map[string]any{"type": "diff", "path": "/repo/internal/retry/retry.go", "oldText": "a", "newText": "b"}}}))
	h.readIDE()
	h.fillContext(2, "s1", 90)
	h.ide(promptMsg(3, "s1", textBlock("continue")))
	req := h.readAgent()
	id, _ := rawjson.Get(req, "id")
	h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"s2"}}`, id))
	h.readAgent()
	h.readIDE() // rollover note
	// Reading the archive is recovery, not work on an unrelated file.
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 77, "method": "fs/read_text_file", "params": map[string]any{"sessionId": "s2", "path": h.p.Store().ConversationsDir() + "/s1_full.md", "line": 1, "limit": 50}}))
	h.untilIDE(func(m []byte) bool { return str(m, "method") == "fs/read_text_file" })
	h.ide(`{"jsonrpc":"2.0","id":77,"result":{"content":"# Conversation archive"}}`)
	h.readAgent()
	h.agent(agentSays("s2", "Could you clarify which test you mean?"))
	h.agent(endTurn(3))
	got := h.untilIDE(isResponse("3"))
	if n := notes(got); !strings.Contains(n, "possible goal drift") || !strings.Contains(n, DriftClarification) {
		t.Fatalf("no drift report: %q", n)
	} else if strings.Contains(n, DriftUnrelated) {
		t.Errorf("reading the archive was reported as drift: %q", n)
	}
	h.wantEvent("GOAL_DRIFT")
}

// TestSummaryFidelity runs a long scripted session through the bridge and
// checks the summary the fresh session receives.
func TestSummaryFidelity(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 60000})
	intent := "Migrate the billing service from REST to gRPC without changing the public API.\nKeep backwards compatibility for two releases."
	instructions := []string{intent}
	var edited []string
	id := 2
	for turn := 0; turn < 14; turn++ {
		msg := intent
		if turn > 0 {
			msg = fmt.Sprintf("Step %d: also handle case %d; do not touch vendor/ (instruction %d)", turn, turn*7, turn)
			instructions = append(instructions, msg)
		}
		h.prompt(id, "s1", msg)
		path := fmt.Sprintf("/repo/billing/grpc/handler_%02d.go", turn)
		edited = append(edited, path)
		h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": fmt.Sprintf("w%d", turn), "title": "Write " + path, "kind": "edit", "status": "in_progress",
			"content": []any{map[string]any{"type": "diff", "path": path, "oldText": nil, "newText": strings.Repeat("package grpc // generated body\n", 300)}}}))
		h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": fmt.Sprintf("w%d", turn), "status": "completed"}))
		if turn == 5 {
			h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t5", "title": "go build ./...", "kind": "execute", "status": "failed",
				"content": []any{map[string]any{"type": "content", "content": textBlock("handler_05.go:12: undefined: pb.Invoice (compiler error E0425)")}}}))
		}
		if turn == 9 {
			h.agent(`{"jsonrpc":"2.0","id":900,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/repo/missing.proto"}}`)
			h.untilIDE(func(m []byte) bool { return str(m, "method") == "fs/read_text_file" })
			h.ide(`{"jsonrpc":"2.0","id":900,"error":{"code":-32002,"message":"Resource not found: /repo/missing.proto"}}`)
			h.readAgent()
		}
		h.agent(update("s1", map[string]any{"sessionUpdate": "plan", "entries": []any{
			map[string]any{"content": "Generate protobuf stubs", "status": "completed", "priority": "high"},
			map[string]any{"content": fmt.Sprintf("Port handler %d", turn), "status": "in_progress", "priority": "high"},
			map[string]any{"content": "Run the compatibility suite", "status": "pending", "priority": "medium"},
		}}))
		h.agent(agentSays("s1", strings.Repeat("Ported another handler and checked the build. ", 60)))
		if turn == 7 {
			// An error code only the agent mentions, in its own words.
			h.agent(agentSays("s1", "The staging deploy was rejected with W9021; I will retry after the build."))
		}
		h.agent(endTurn(id))
		h.untilIDE(isResponse(fmt.Sprint(id)))
		id++
	}
	h.ide(promptMsg(id, "s1", textBlock("/bridge-compress")))
	if n := notes(h.untilIDE(isResponse(fmt.Sprint(id)))); !strings.Contains(n, "Session checkpointed") {
		t.Fatalf("compress: %q", n)
	}
	id++
	h.ide(promptMsg(id, "s1", textBlock("carry on")))
	req := h.readAgent()
	rid, _ := rawjson.Get(req, "id")
	h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"s2"}}`, rid))
	pr := h.readAgent()
	summary := str(pr, "params", "prompt", "0", "text")

	if n := CountTokens(summary); n > 2000 {
		t.Errorf("summary is %d tokens, want at most 2000", n)
	}
	if !strings.Contains(summary, "> Migrate the billing service from REST to gRPC without changing the public API.\n> Keep backwards compatibility for two releases.") {
		t.Error("summary lacks the intent verbatim")
	}
	for _, ins := range instructions[1:] {
		if !strings.Contains(summary, ins) {
			t.Errorf("summary lacks instruction %q", ins)
		}
	}
	for _, p := range edited {
		if !strings.Contains(summary, p) {
			t.Errorf("summary lacks edited path %s", p)
		}
	}
	for _, code := range []string{"E0425", "-32002", "W9021"} {
		if !strings.Contains(summary, code) {
			t.Errorf("summary lacks error code %s:\n%s", code, summary)
		}
	}
	if strings.Contains(summary, "generated body") {
		t.Error("summary carries a write body (tier 2)")
	}
	for _, want := range []string{"Port handler 13", "Run the compatibility suite", "conversations/s1_full.md"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	// The archive holds the whole conversation.
	archive, err := os.ReadFile(h.p.Store().ConversationsDir() + "/s1_full.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, ins := range instructions {
		if !strings.Contains(string(archive), ins) {
			t.Errorf("archive lacks %q", ins)
		}
	}
	if !strings.Contains(string(archive), "Ported another handler") {
		t.Error("archive lacks the agent's messages")
	}
	// Writes at ORANGE and above were logged as tier 2.
	h.wantEvent("TIER_2")
	var ev Event
	for _, line := range strings.Split(strings.TrimSpace(h.log.String()), "\n") {
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("log line is not JSON: %s", line)
		}
		if ev.Type == EventTier3 && (ev.TokensSaved <= 0 || ev.IntentPreserved != IntentPreserved || len(ev.Files) != 1) {
			t.Errorf("TIER_3 event: %+v", ev)
		}
	}
}

func TestCancelAbandonsCompaction(t *testing.T) {
	h := compactingTurn(t)
	h.fillContext(2, "s1", 80)
	h.ide(promptMsg(3, "s1", textBlock("next step")))
	if c := h.readAgent(); !strings.HasPrefix(str(c, "params", "prompt", "0", "text"), "/compact ") {
		t.Fatalf("agent got %s", c)
	}
	// The agent never answers the compaction; the user cancels.
	h.ide(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	want := []string{"session/cancel", "session/prompt", "session/cancel"}
	for i, w := range want {
		m := h.readAgent()
		if str(m, "method") != w || str(m, "params", "sessionId") != "s1" {
			t.Fatalf("message %d to the agent: %s, want %s", i, m, w)
		}
		if w == "session/prompt" && str(m, "params", "prompt", "0", "text") != "next step" {
			t.Fatalf("prompt: %s", m)
		}
	}
}

// compactingTurn starts session s1 with an agent that offers /compact,
// and the session's first prompt (id 2), which the agent has received.
func compactingTurn(t *testing.T) *harness {
	t.Helper()
	h := sessionHarness(t, Config{AgentCompact: true})
	h.agent(update("s1", map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": []any{map[string]any{"name": "compact", "description": "compact"}}}))
	h.readIDE()
	h.prompt(2, "s1", "Port the build to Bazel")
	return h
}

// TestRolloverResultHeard: the agent's result for the rollover's
// session/new, which passes no middleware, reaches Config.OnRollover with
// the IDE's session id before the agent's next message is handled, so
// governance follows the fresh session's mode.
func TestRolloverResultHeard(t *testing.T) {
	type heard struct{ ide, result string }
	got := make(chan heard, 1)
	h := newHarness(t, Config{ContextSize: 2000, OnRollover: func(ide string, result []byte) {
		got <- heard{ide, string(result)}
	}})
	h.newSession(1, "/repo", "s1")
	h.prompt(2, "s1", "Write a CSV exporter in export/csv.go")
	h.checkpoint(2, "s1", "Working on the exporter. ")
	_, id := h.rolloverAsked(4, "s1", "go on")
	result := `{"sessionId":"s2","modes":{"currentModeId":"bypassPermissions","availableModes":[]}}`
	h.agent(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + `}`)
	if p := h.readAgent(); str(p, "method") != "session/prompt" || str(p, "params", "sessionId") != "s2" {
		t.Fatalf("agent got %s, want the prompt in s2", p)
	}
	select {
	case g := <-got:
		if g.ide != "s1" || g.result != result {
			t.Fatalf("OnRollover heard %q %s, want s1 %s", g.ide, g.result, result)
		}
	default:
		t.Fatal("OnRollover not called before the prompt went on")
	}
}
