package compress

import (
	"encoding/json"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

func commandNames(t *testing.T, m []byte) []string {
	t.Helper()
	raw, ok := rawjson.Get(m, "params", "update", "availableCommands")
	if !ok {
		t.Fatalf("no availableCommands in %s", m)
	}
	var cmds []struct{ Name string }
	if err := json.Unmarshal(raw, &cmds); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	return names
}

func TestQuickCommandsMergedAndNeverReachAgent(t *testing.T) {
	h := sessionHarness(t, Config{})
	// The agent advertises its own commands, one of which clashes.
	h.agent(update("s1", map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": []any{
		map[string]any{"name": "compact", "description": "Clear history but keep a summary"},
		map[string]any{"name": "context", "description": "Show context usage"},
		map[string]any{"name": "bridge-log", "description": "the agent's own"},
	}}))
	got := strings.Join(commandNames(t, h.readIDE()), ",")
	want := "compact,context,bridge-log,bridge-context,bridge-compress,bridge-recover,bridge-intent"
	if got != want {
		t.Errorf("merged commands = %s, want %s", got, want)
	}

	tests := []struct {
		prompt string
		want   string
	}{
		{"/bridge-context", "**Context:** 0 / 200,000 tokens (0.0%, GREEN"},
		{"/bridge-intent", "No session intent yet"},
		{"/bridge-recover", "Usage: /bridge-recover TOPIC"},
		{"/bridge-recover nothing-here", `Nothing about "nothing-here"`},
	}
	for i, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			id := 10 + i
			h.ide(promptMsg(id, "s1", textBlock(tt.prompt)))
			note := h.readIDE()
			if str(note, "params", "sessionId") != "s1" || str(note, "params", "update", "sessionUpdate") != "agent_message_chunk" {
				t.Fatalf("IDE got %s, want an agent_message_chunk", note)
			}
			if text := str(note, "params", "update", "content", "text"); !strings.Contains(text, tt.want) {
				t.Errorf("answer %q lacks %q", text, tt.want)
			}
			resp := h.readIDE()
			if !isResponse(mustJSON(id))(resp) || str(resp, "result", "stopReason") != "end_turn" {
				t.Fatalf("IDE got %s, want the end_turn response", resp)
			}
		})
	}
	// An unknown /bridge-x and the agent's own commands go to the agent.
	h.ide(promptMsg(20, "s1", textBlock("/compact please")))
	if m := h.readAgent(); str(m, "params", "prompt", "0", "text") != "/compact please" {
		t.Fatalf("agent got %s", m)
	}
	h.AgentGetsNothingMore()
}

func TestOffloadReadTextFile(t *testing.T) {
	h := sessionHarness(t, Config{OffloadTokens: 1000})
	big := bigLog(3000)
	lines := strings.Split(big, "\n")
	lines[1777] = "NEEDLE: the staging database password rotates on day 17"
	big = strings.Join(lines, "\n")

	// A whole-file read over the threshold is offloaded.
	h.agent(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/repo/import.log"}}`)
	if m := h.readIDE(); str(m, "method") != "fs/read_text_file" {
		t.Fatalf("IDE got %s", m)
	}
	h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 7, "result": map[string]any{"content": big}}))
	got := h.readAgent()
	ref := str(got, "result", "content")
	if !strings.HasPrefix(ref, "## Offloaded Content Reference") {
		t.Fatalf("agent got %.300s", ref)
	}
	if strings.Contains(ref, "NEEDLE") {
		t.Fatal("the needle is in the reference: nothing was offloaded")
	}
	path := refPath(ref)
	disk, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(disk) != big {
		t.Fatal("offloaded file is not byte-identical to the content")
	}
	if CountTokens(ref)*20 > CountTokens(big) {
		t.Errorf("reference %d tokens for %d: under 95%% saved", CountTokens(ref), CountTokens(big))
	}

	// The needle is reachable through the reference: a ranged read of the
	// path passes untouched, and /bridge-recover finds it.
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "fs/read_text_file", "params": map[string]any{"sessionId": "s1", "path": path, "line": 1770, "limit": 20}}))
	req := h.readIDE()
	if str(req, "params", "path") != path {
		t.Fatalf("IDE got %s", req)
	}
	page := strings.Join(strings.Split(string(disk), "\n")[1769:1789], "\n") + strings.Repeat("\npadding line to exceed the threshold", 400)
	h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 8, "result": map[string]any{"content": page}}))
	if got := str(h.readAgent(), "result", "content"); got != page || !strings.Contains(got, "NEEDLE: the staging database password") {
		t.Fatalf("ranged read was changed or lost the needle: %.200s", got)
	}
	h.ide(promptMsg(9, "s1", textBlock("/bridge-recover staging database password")))
	ans := str(h.readIDE(), "params", "update", "content", "text")
	if !strings.Contains(ans, path+":1778") {
		t.Errorf("recover answer lacks %s:1778:\n%s", path, ans)
	}
	h.readIDE() // end_turn

	// A whole read of the offloaded file itself passes untouched: the agent
	// asked for that content (Gemini CLI reads whole files through the
	// client and pages them itself).
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 10, "method": "fs/read_text_file", "params": map[string]any{"sessionId": "s1", "path": path}}))
	h.readIDE()
	h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 10, "result": map[string]any{"content": big}}))
	if again := str(h.readAgent(), "result", "content"); again != big {
		t.Errorf("re-read of the offloaded file was changed: %.100s", again)
	}
	// line and limit set to null do not make a read ranged.
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 11, "method": "fs/read_text_file", "params": map[string]any{"sessionId": "s1", "path": "/repo/import.log", "line": nil, "limit": nil}}))
	// The IDE gets a usage_update first (the re-read above raised the
	// estimate) and answers only once it has the request, as a real IDE
	// does: an answer the bridge reads before it is refused.
	h.untilIDE(func(m []byte) bool { return str(m, "method") == "fs/read_text_file" })
	h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 11, "result": map[string]any{"content": big}}))
	if got := str(h.readAgent(), "result", "content"); !strings.HasPrefix(got, "## Offloaded Content Reference") {
		t.Errorf("read with null line/limit not offloaded: %.100s", got)
	}
	h.wantEvent("TIER_1")
}

func TestOffloadTerminalOutput(t *testing.T) {
	h := sessionHarness(t, Config{OffloadTokens: 500})
	h.agent(`{"jsonrpc":"2.0","id":3,"method":"terminal/create","params":{"sessionId":"s1","command":"go","args":["test","./..."]}}`)
	h.readIDE()
	h.ide(`{"jsonrpc":"2.0","id":3,"result":{"terminalId":"t1"}}`)
	h.readAgent()
	out := bigLog(400) + "--- FAIL: TestImport (0.01s)\nimport.go:42: error TS2304 ENOENT\n"
	h.agent(`{"jsonrpc":"2.0","id":4,"method":"terminal/output","params":{"sessionId":"s1","terminalId":"t1"}}`)
	h.readIDE()
	h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 4, "result": map[string]any{"output": out, "truncated": false, "exitStatus": map[string]any{"exitCode": 1}}}))
	got := h.readAgent()
	ref := str(got, "result", "output")
	if !strings.Contains(ref, "Offloaded Content Reference") || !strings.Contains(ref, "terminal/output go") {
		t.Fatalf("agent got %.300s", ref)
	}
	if !strings.Contains(ref, "error TS2304 ENOENT") {
		t.Error("the last lines (the failure) are not in the preview")
	}
	if v, _ := rawjson.Get(got, "result", "exitStatus", "exitCode"); string(v) != "1" || str(got, "result", "truncated") != "" {
		// truncated is a bool: str returns "" for it; check it survived.
		if b, _ := rawjson.Get(got, "result", "truncated"); string(b) != "false" || string(v) != "1" {
			t.Errorf("other result fields changed: %s", got[:min(len(got), 200)])
		}
	}
	// wait_for_exit has no output in ACP; it passes untouched.
	h.agent(`{"jsonrpc":"2.0","id":5,"method":"terminal/wait_for_exit","params":{"sessionId":"s1","terminalId":"t1"}}`)
	h.readIDE()
	h.ide(`{"jsonrpc":"2.0","id":5,"result":{"exitCode":1,"signal":null}}`)
	if got := h.readAgent(); string(got) != `{"jsonrpc":"2.0","id":5,"result":{"exitCode":1,"signal":null}}` {
		t.Errorf("wait_for_exit result changed: %s", got)
	}
}

func TestOffloadEmbeddedResource(t *testing.T) {
	h := sessionHarness(t, Config{OffloadTokens: 1000})
	big := bigLog(2000)
	h.ide(promptMsg(2, "s1", textBlock("Summarise the failures in this log"),
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///repo/import.log", "mimeType": "text/plain", "text": big}},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///repo/small.txt", "text": "small"}}))
	got := h.readAgent()
	raw, _ := rawjson.Get(got, "params", "prompt")
	var blocks []map[string]any
	if err := json.Unmarshal(raw, &blocks); err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 4 {
		t.Fatalf("want text, resource_link, reference, small resource; got %d blocks: %s", len(blocks), raw[:min(len(raw), 400)])
	}
	if blocks[0]["text"] != "Summarise the failures in this log" || blocks[1]["type"] != "resource_link" || blocks[2]["type"] != "text" || blocks[3]["type"] != "resource" {
		t.Fatalf("blocks: %v %v %v %v", blocks[0]["type"], blocks[1]["type"], blocks[2]["type"], blocks[3]["type"])
	}
	u, err := url.Parse(blocks[1]["uri"].(string))
	if err != nil || u.Scheme != "file" {
		t.Fatalf("resource_link uri %v", blocks[1]["uri"])
	}
	disk, err := os.ReadFile(u.Path)
	if err != nil || string(disk) != big {
		t.Fatalf("offloaded copy differs from the resource (%v)", err)
	}
	if refPath(blocks[2]["text"].(string)) != u.Path {
		t.Errorf("reference names %s, link %s", refPath(blocks[2]["text"].(string)), u.Path)
	}
	if blocks[1]["mimeType"] != "text/plain" {
		t.Errorf("mimeType lost: %v", blocks[1]["mimeType"])
	}
}

func TestOffloadTowardIDE(t *testing.T) {
	h := sessionHarness(t, Config{OffloadTokens: 1000})
	big := bigLog(1500)
	small := update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed", "content": []any{map[string]any{"type": "content", "content": textBlock("short")}}})
	h.agent(small)
	if got := h.readIDE(); string(got) != small {
		t.Errorf("small tool_call_update changed:\n%s\n%s", got, small)
	}
	h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c2", "title": "Read import.log", "status": "completed", "content": []any{
		map[string]any{"type": "content", "content": textBlock("short")},
		map[string]any{"type": "content", "content": textBlock(big)},
	}}))
	got := h.readIDE()
	if str(got, "params", "update", "content", "0", "content", "text") != "short" {
		t.Error("first block changed")
	}
	ref := str(got, "params", "update", "content", "1", "content", "text")
	if !strings.HasPrefix(ref, "## Offloaded Content Reference") {
		t.Fatalf("IDE got %.200s", ref)
	}
	if disk, _ := os.ReadFile(refPath(ref)); string(disk) != big {
		t.Error("offloaded copy differs")
	}
	if str(got, "params", "update", "toolCallId") != "c2" || str(got, "params", "update", "title") != "Read import.log" {
		t.Error("other fields changed")
	}
}

func TestEstimatedUsageUpdate(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 1000})
	h.prompt(2, "s1", "hello there")
	// 1200 bytes of output is about 300 tokens: 30%, YELLOW. The level
	// change is announced once, when it happens, and again at turn end.
	h.agent(agentSays("s1", strings.Repeat("word ", 240)))
	if m := h.readIDE(); str(m, "params", "update", "sessionUpdate") != "agent_message_chunk" {
		t.Fatalf("IDE got %s", m)
	}
	est := h.readIDE()
	if str(est, "params", "update", "sessionUpdate") != "usage_update" {
		t.Fatalf("IDE got %s, want usage_update on the level change", est)
	}
	if b, _ := rawjson.Get(est, "params", "update", "_meta", "acp-bridge", "estimated"); string(b) != "true" || str(est, "params", "update", "_meta", "acp-bridge", "level") != "YELLOW" {
		t.Errorf("estimate not marked: %s", est)
	}
	h.agent(agentSays("s1", "done"))
	h.readIDE()
	h.agent(endTurn(2))
	last := h.readIDE()
	if str(last, "params", "update", "sessionUpdate") != "usage_update" {
		t.Fatalf("IDE got %s, want usage_update before the response", last)
	}
	// While streaming, and at turn end, text is counted at four bytes a
	// token; then, off the forwarding path, the estimate takes the turn's
	// o200k count instead (the text fits in the meter's sample: exactly),
	// and the IDE hears of the level that changed.
	used := func(m []byte) int {
		b, _ := rawjson.Get(m, "params", "update", "used")
		n, _ := strconv.Atoi(string(b))
		return n
	}
	streamed := strings.Repeat("word ", 240)
	turn := "hello there" + streamed + "done"
	if want := estimateFromBytes(len("hello there")) + estimateFromBytes(len(streamed)) + estimateFromBytes(len("done")); used(last) != want {
		t.Errorf("turn-end estimate %d, want %d (the byte estimate)", used(last), want)
	}
	if resp := h.readIDE(); !isResponse("2")(resp) {
		t.Fatalf("IDE got %s", resp)
	}
	h.p.settler.wait()
	settled := h.readIDE()
	if str(settled, "params", "update", "sessionUpdate") != "usage_update" || str(settled, "params", "update", "_meta", "acp-bridge", "level") != "GREEN" {
		t.Fatalf("IDE got %s, want the settled estimate's level change", settled)
	}
	// The chunks are pieces of one message: counted together, as the model sees them.
	if want := CountTokens(turn); used(settled) != want {
		t.Errorf("settled estimate %d, want %d (o200k of the turn's text)", used(settled), want)
	}

	// Once the agent reports usage itself, the bridge stops estimating.
	h.prompt(3, "s1", "again")
	h.agent(update("s1", map[string]any{"sessionUpdate": "usage_update", "used": 100, "size": 1000}))
	h.readIDE()
	h.agent(endTurn(3))
	if resp := h.readIDE(); !isResponse("3")(resp) {
		t.Fatalf("IDE got %s, want the response with no estimate before it", resp)
	}
}

func TestSessionLoadReplayOffloaded(t *testing.T) {
	h := newHarness(t, Config{OffloadTokens: 1000})
	h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/load","params":{"sessionId":"old","cwd":"/repo","mcpServers":[]}}`)
	h.readAgent()
	big := bigLog(1500)
	h.agent(update("old", map[string]any{"sessionUpdate": "user_message_chunk", "content": textBlock("summarise the log")}))
	h.agent(update("old", map[string]any{"sessionUpdate": "agent_message_chunk", "content": textBlock(big)}))
	h.agent(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	if m := h.readIDE(); str(m, "params", "update", "content", "text") != "summarise the log" {
		t.Fatalf("IDE got %s", m)
	}
	replay := str(h.readIDE(), "params", "update", "content", "text")
	if !strings.HasPrefix(replay, "## Offloaded Content Reference") {
		t.Fatalf("replayed chunk not offloaded: %.200s", replay)
	}
	if disk, _ := os.ReadFile(refPath(replay)); string(disk) != big {
		t.Error("offloaded replay differs from the original")
	}
	h.readIDE() // load response
	// After the load, live output passes as is.
	h.prompt(2, "old", "go on")
	live := agentSays("old", big)
	h.agent(live)
	if got := h.readIDE(); string(got) != live {
		t.Error("live agent output was changed")
	}
	// The loaded session intent is the replayed first user message's
	// successor: the bridge saw no earlier prompt, so the first prompt
	// through it is the intent.
	h.agent(endTurn(2))
	h.untilIDE(isResponse("2"))
	h.ide(promptMsg(3, "old", textBlock("/bridge-intent")))
	if n := notes(h.untilIDE(isResponse("3"))); !strings.Contains(n, "> go on") {
		t.Errorf("intent: %q", n)
	}
}

func TestTier2WriteBodiesStayOut(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 1000})
	h.prompt(2, "s1", "Generate the fixtures in testdata/")
	h.agent(agentSays("s1", strings.Repeat("planning the fixtures ", 120))) // ~660 tokens: ORANGE
	body := strings.Repeat("fixture line with generated content\n", 200)
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 5, "method": "fs/write_text_file", "params": map[string]any{"sessionId": "s1", "path": "/repo/testdata/big.txt", "content": body}}))
	h.untilIDE(func(m []byte) bool { return str(m, "method") == "fs/write_text_file" })
	h.ide(`{"jsonrpc":"2.0","id":5,"result":null}`)
	h.readAgent()
	var ev Event
	found := false
	for _, line := range strings.Split(strings.TrimSpace(h.log.String()), "\n") {
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == EventTier2 {
			found = true
			break
		}
	}
	if !found {
		t.Fatalf("no TIER_2 event:\n%s", h.log)
	}
	if ev.Level != "ORANGE" || ev.TokensSaved <= 0 || ev.TokensAfter >= ev.TokensBefore {
		t.Errorf("TIER_2 event %+v", ev)
	}
	h.p.mu.Lock()
	s := h.p.sessions["s1"]
	h.p.mu.Unlock()
	s.mu.Lock()
	md := BuildSummary(s.rec, h.p.now(), "/a", "/o", 1<<20).Markdown()
	s.mu.Unlock()
	if !strings.Contains(md, "/repo/testdata/big.txt") || !strings.Contains(md, "content persisted to disk") || strings.Contains(md, "fixture line") {
		t.Errorf("summary artifact row wrong:\n%s", md)
	}
}

// TestWriteOfReferenceRefused: an edit tool that read a large file through
// the client got the reference; writing that back would destroy the file.
func TestWriteOfReferenceRefused(t *testing.T) {
	h := sessionHarness(t, Config{OffloadTokens: 1000})
	h.agent(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/repo/big.go"}}`)
	h.readIDE()
	h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 7, "result": map[string]any{"content": bigLog(2000)}}))
	ref := str(h.readAgent(), "result", "content")
	edited := strings.Replace(ref, "processed batch 3 of", "handled batch 3 of", 1)
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "fs/write_text_file", "params": map[string]any{"sessionId": "s1", "path": "/repo/big.go", "content": edited}}))
	got := h.readAgent()
	if code, _ := rawjson.Get(got, "error", "code"); string(code) != "-32602" || !strings.Contains(str(got, "error", "message"), "offload reference") {
		t.Fatalf("agent got %s, want an invalid-params error", got)
	}
	h.ClientGetsNothingMore()
	h.wantEvent("WRITE_REFUSED")
	// An ordinary write passes.
	h.agent(`{"jsonrpc":"2.0","id":9,"method":"fs/write_text_file","params":{"sessionId":"s1","path":"/repo/a.go","content":"package a\n"}}`)
	if m := h.readIDE(); str(m, "method") != "fs/write_text_file" {
		t.Fatalf("IDE got %s", m)
	}
}

// TestWriteOfReferenceInUnopenedSession: the same write in a session the
// IDE never opened is not the pipeline's to answer: it passes on (to
// governance, which refuses and records any request in such a session),
// and the pipeline records no event for that session.
func TestWriteOfReferenceInUnopenedSession(t *testing.T) {
	h := sessionHarness(t, Config{OffloadTokens: 1000})
	ref := "## Offloaded Content Reference\n**File:** " + h.p.store.OffloadedDir() + "/x.md\n"
	h.agent(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "fs/write_text_file", "params": map[string]any{"sessionId": "sess-evil", "path": "/repo/big.go", "content": ref}}))
	h.agent(agentSays("s1", "after the write")) // what the IDE gets next if the write does not pass
	if m := h.readIDE(); str(m, "method") != "fs/write_text_file" || str(m, "params", "sessionId") != "sess-evil" {
		t.Fatalf("IDE got %s, want the write passed on untouched", m)
	}
	if m := h.readIDE(); str(m, "params", "update", "content", "text") != "after the write" {
		t.Fatalf("IDE got %s, want the agent's message", m)
	}
	h.AgentGetsNothingMore()
	if strings.Contains(h.log.String(), "WRITE_REFUSED") {
		t.Errorf("event log records a refusal in a session the IDE never opened:\n%s", h.log.String())
	}
}

func TestKeepReads(t *testing.T) {
	h := sessionHarness(t, Config{OffloadTokens: 1000, KeepReads: true})
	h.agent(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/repo/big.go"}}`)
	h.readIDE()
	big := bigLog(2000)
	h.ide(mustJSON(map[string]any{"jsonrpc": "2.0", "id": 7, "result": map[string]any{"content": big}}))
	if got := str(h.readAgent(), "result", "content"); got != big {
		t.Errorf("read offloaded with KeepReads: %.100s", got)
	}
}

// refPath extracts the file path from a Reference.
func refPath(ref string) string {
	const k = "**File:** "
	i := strings.Index(ref, k)
	if i < 0 {
		return ""
	}
	rest := ref[i+len(k):]
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
