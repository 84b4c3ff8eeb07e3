package compress

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestKeepsNoMessageBytes streams several read blocks' worth of agent
// text and tool calls through a bridge that reuses its blocks and poisons
// each one that comes back (TestMain), then checkpoints: the archive and
// the facts must hold what was said, not the poison, as the pipeline keeps
// copies only (it is added with UseNonRetaining).
func TestKeepsNoMessageBytes(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 1 << 30})
	h.prompt(2, "s1", "stream a lot")
	var said []string
	for i := range 300 {
		text := fmt.Sprintf("chunk %03d ", i) + strings.Repeat(string(rune('a'+i%26)), 1000)
		said = append(said, text)
		h.agent(agentSays("s1", text))
		h.untilIDE(func(m []byte) bool { return str(m, "params", "update", "content", "text") == text })
		if i%30 == 29 {
			call := fmt.Sprintf("c%d", i)
			h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": call, "title": fmt.Sprintf("Run step %d", i), "kind": "execute", "status": "in_progress"}))
			h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": call, "status": "completed",
				"content": []any{map[string]any{"type": "content", "content": textBlock(fmt.Sprintf("build failed: TS%04d", i))}}}))
			h.untilIDE(func(m []byte) bool {
				return str(m, "params", "update", "toolCallId") == call && str(m, "params", "update", "status") == "completed"
			})
		}
	}
	h.agent(endTurn(2))
	h.untilIDE(isResponse("2"))
	h.ide(promptMsg(3, "s1", textBlock("/bridge-compress")))
	if n := notes(h.untilIDE(isResponse("3"))); !strings.Contains(n, "Session checkpointed") {
		t.Fatalf("compress: %q", n)
	}
	archive, err := os.ReadFile(h.p.Store().ConversationsDir() + "/s1_full.md")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(archive), "####") {
		t.Error("the archive holds the poison of a reused read block")
	}
	for _, want := range said {
		if !strings.Contains(string(archive), want) {
			t.Fatalf("the archive lacks the agent's text %.20q... (%d bytes of archive)", want, len(archive))
		}
	}
	for i := 29; i < 300; i += 30 {
		if want := fmt.Sprintf("execute [completed] Run step %d", i); !strings.Contains(string(archive), want) {
			t.Errorf("the archive lacks %q", want)
		}
	}
	s := h.p.lookup("s1")
	s.mu.Lock()
	facts := strings.Join(s.rec.Facts(), "\n")
	s.mu.Unlock()
	for i := 29; i < 300; i += 30 {
		if want := fmt.Sprintf("Error code seen: TS%04d", i); !strings.Contains(facts, want) {
			t.Errorf("facts lack %q:\n%s", want, facts)
		}
	}
}
