package acpparams

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestSharedUpdateOfAllocs: a tool call shaped as most are (one location,
// one content item), read by compression (SharedUpdateOf) and then by
// governance (UpdateOf), allocates the reading kept on the message, the
// message's note of it (Message.Memo), the strings the reading holds and
// the Locations slice, and nothing else: no closure for Memo, no memory
// for Items of one element.
func TestSharedUpdateOfAllocs(t *testing.T) {
	for _, tc := range []struct {
		name, params string
		want         float64 // the reading, Memo's note, and the strings
	}{
		{"tool_call", `{"sessionId":"sess-0001","update":{"sessionUpdate":"tool_call","toolCallId":"call-17","title":"read src/file17.go","kind":"read","status":"in_progress","locations":[{"path":"/work/project/src/file17.go"}]}}`,
			2 + 4}, // toolCallId, title, Locations and its path
		{"tool_call_update", `{"sessionId":"sess-0001","update":{"sessionUpdate":"tool_call_update","toolCallId":"call-17","status":"completed","content":[{"type":"content","content":{"type":"text","text":"output"}}]}}`,
			2 + 1}, // toolCallId
	} {
		t.Run(tc.name, func(t *testing.T) {
			parsed := message(tc.params)
			if parsed == nil {
				t.Fatal("the params do not parse")
			}
			read := func(m *acpwire.Message) {
				if _, err := SharedUpdateOf(m, m.Params); err != nil {
					t.Fatal(err)
				}
				if _, err := UpdateOf(m, m.Params); err != nil {
					t.Fatal(err)
				}
			}
			unread := *parsed
			read(parsed) // the session id's decoding is kept across messages (SessionIDs)
			got := testing.AllocsPerRun(100, func() {
				m := unread // one allocation, as the bridge's for each message
				read(&m)
			})
			if got -= 1; got != tc.want {
				t.Errorf("allocations per message = %v, want %v", got, tc.want)
			}
		})
	}
}
