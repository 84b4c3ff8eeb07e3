package acpwire

import "testing"

// TestMarksAfterRewrite: the marks the wire sets on the bytes it parsed
// (TextChunk, CheckedStrictly, ChunkLine) hold only while the message still
// carries those bytes. A middleware that sets Raw or Params to other bytes
// (Message asks for WithRaw or Patch instead) must not have a tool call
// pass governance as the text chunk it replaced, or unchecked bytes pass
// as checked.
func TestMarksAfterRewrite(t *testing.T) {
	const (
		chunk = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
		call  = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"x","kind":"read","locations":[{"path":"/w/.env"}],"locations":[{"path":"/w/a"}]}}}`
	)
	for _, tt := range []struct {
		name    string
		rewrite func(m, o *Message)
	}{
		{"raw and params set to another line's", func(m, o *Message) { m.Raw, m.Params = o.Raw, o.Params }},
		{"raw set to another line", func(m, o *Message) { m.Raw = o.Raw }},
		{"params set to another line's", func(m, o *Message) { m.Params = o.Params }},
		{"params set to a copy", func(m, o *Message) { m.Params = append([]byte(nil), m.Params...) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(AgentToClient, []byte(chunk))
			if err != nil {
				t.Fatal(err)
			}
			o, err := Parse(AgentToClient, []byte(call))
			if err != nil {
				t.Fatal(err)
			}
			m.strict = true // as the bridge marks a message it checked
			if !m.TextChunk() || !m.CheckedStrictly() {
				t.Fatal("marks not set before the rewrite")
			}
			if _, _, _, _, ok := m.ChunkLine(); !ok {
				t.Fatal("ChunkLine not ok before the rewrite")
			}
			tt.rewrite(m, o)
			if m.TextChunk() {
				t.Error("TextChunk after the rewrite: a tool call would pass as a chunk")
			}
			if m.CheckedStrictly() {
				t.Error("CheckedStrictly after the rewrite: bytes never checked would pass as checked")
			}
			if _, _, _, _, ok := m.ChunkLine(); ok {
				t.Error("ChunkLine ok after the rewrite")
			}
		})
	}
}
