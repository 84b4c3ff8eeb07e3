package compress

import (
	"os"
	"strings"
	"testing"
)

// TestOffloadBudget: tier 1 writes at most Config.MaxOffloadBytes to the
// cache in a run, whatever the agent makes it offload (its tool calls'
// output toward the IDE, the files it reads again and again); past it,
// larger content passes as is, and the cache grows no more. An offload
// the bridge takes back (its message was not passed on) gives its bytes
// back.
func TestOffloadBudget(t *testing.T) {
	big := bigLog(1500)
	h := sessionHarness(t, Config{OffloadTokens: 1000, MaxOffloadBytes: int64(2*len(big) + 10)})
	call := func(id string) string {
		return update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
			"content": []any{map[string]any{"type": "content", "content": textBlock(big)}}})
	}
	for i, want := range []bool{true, true, false, false} {
		id := string(rune('a' + i))
		line := call(id)
		h.agent(line)
		seen := h.untilIDE(func(m []byte) bool { return str(m, "params", "update", "toolCallId") == id })
		got := seen[len(seen)-1]
		offloaded := strings.HasPrefix(str(got, "params", "update", "content", "0", "content", "text"), "## Offloaded Content Reference")
		if offloaded != want {
			t.Errorf("call %d: offloaded %v, want %v", i, offloaded, want)
		}
		if !want && string(got) != line {
			t.Errorf("call %d past the budget reached the IDE changed: %.200s", i, got)
		}
	}
	entries, err := os.ReadDir(h.p.Store().OffloadedDir())
	if err != nil || len(entries) != 2 {
		t.Errorf("the cache holds %d offloads (%v), want 2", len(entries), err)
	}
	h.p.releaseOffload(len(big)) // as discardOffload does
	if !h.p.reserveOffload(len(big)) {
		t.Error("bytes given back are not taken again")
	}
}
