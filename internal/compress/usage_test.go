package compress

import (
	"strconv"
	"strings"
	"testing"
)

// TestAgentUsageIsNotEstimated: once the agent reports its own usage, the
// meter takes its figures, so the bridge tokenizes none of the turns that
// follow (issue 20: prefer the agent's usage_update when it sends one),
// and tells the IDE no estimate of its own.
func TestAgentUsageIsNotEstimated(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 100000})
	turn := func(id int, usage bool) {
		t.Helper()
		h.prompt(id, "s1", "go on")
		if usage {
			h.agent(update("s1", map[string]any{"sessionUpdate": "usage_update", "used": 1000, "size": 100000}))
			h.readIDE()
		}
		for range 20 {
			h.agent(agentSays("s1", strings.Repeat("some words of output ", 50)))
			h.readIDE()
		}
		h.agent(endTurn(id))
		for {
			m := h.readIDE()
			if isResponse(strconv.Itoa(id))(m) {
				break
			}
			if usage {
				t.Errorf("IDE got %s after the agent reported its usage", m)
			}
		}
		h.p.settler.wait()
	}
	turn(2, false)
	if n := h.p.settler.settled(); n != 1 {
		t.Fatalf("%d turns settled before the agent reported usage, want 1", n)
	}
	turn(3, true)
	turn(4, false) // the report stands until the session rolls over
	if n := h.p.settler.settled(); n != 1 {
		t.Errorf("%d turns settled, want still 1: the agent's usage_update needs no estimate", n)
	}
}
