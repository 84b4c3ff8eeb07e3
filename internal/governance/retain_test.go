package governance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestKeepsNoMessageBytes streams several read blocks' worth of agent text
// with tool calls among it through a bridge that reuses its blocks and
// poisons each one that comes back (TestMain): every record of a call, made
// while its message's block was live and read long after the block was
// read over, must hold the call's input and output as the agent sent them,
// not the poison, as the Enforcer keeps copies only (it is added with
// UseFailClosedNonRetaining).
func TestKeepsNoMessageBytes(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	type call struct{ id, input, output string }
	var calls []call
	for i := range 200 {
		text := fmt.Sprintf("chunk %03d ", i) + strings.Repeat(string(rune('a'+i%26)), 1000)
		h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`, text)
		if m := h.nextAtIDE(); get(m, "params", "update", "content", "text") != text {
			t.Fatalf("IDE got %v, want chunk %d", m, i)
		}
		if i%20 != 19 {
			continue
		}
		c := call{id: fmt.Sprintf("c%d", i), input: fmt.Sprintf("src/file%d.go", i), output: fmt.Sprintf("package p // output of call %d ", i) + strings.Repeat("x", 3000)}
		calls = append(calls, c)
		h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":%q,"title":"Read","kind":"read","status":"in_progress","rawInput":{"path":%q},"locations":[{"path":%q}]`,
			c.id, h.root+"/"+c.input, h.root+"/"+c.input))
		h.wantForwarded(c.id)
		h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":%q,"status":"completed","content":[{"type":"content","content":{"type":"text","text":%q}}]`, c.id, c.output))
		h.wantForwarded(c.id)
	}
	h.marker()
	records := h.rec.find("tool.call", "")
	var all strings.Builder
	for _, r := range records {
		all.WriteString(recordText(r.ev) + "\n")
	}
	if strings.Contains(all.String(), "####") {
		t.Error("a record holds the poison of a reused read block")
	}
	for _, c := range calls {
		var input, output bool
		for _, r := range records {
			if r.ev.Subject.Ref != c.id {
				continue
			}
			s := recordText(r.ev)
			input = input || strings.Contains(s, h.root+"/"+c.input)
			output = output || strings.Contains(s, c.output)
		}
		if !input || !output {
			t.Errorf("records of %s: input kept %v, output kept %v", c.id, input, output)
		}
	}
}

// recordText is what a record carries, bytes shown as text.
func recordText(ev audit.Event) string {
	var in, out, md any = ev.Input, ev.Output, ev.Metadata
	return fmt.Sprintf("%s %s %s", in, out, md)
}
