package rawjson

import "testing"

// BenchmarkReadObject walks a tool call update, members and elements at
// every depth, with ReadObject, ReadArray and SkipValue: the cost is per
// member and element.
func BenchmarkReadObject(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"0c42d304-07d4-4bd7-88a3-0a82dd33c1d4","update":{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01","status":"completed","kind":"read","title":"Read README.md","locations":[{"path":"/ws/README.md","line":1}],"rawInput":{"file_path":"/ws/README.md"},"content":[{"type":"content","content":{"type":"text","text":"ok"}}]}}}`)
	var walk func(at int) (int, error)
	walk = func(at int) (int, error) {
		switch msg[at] {
		case '{':
			return ReadObject(msg, at, func(_ []byte, at int) (int, error) { return walk(at) })
		case '[':
			return ReadArray(msg, at, walk)
		}
		return SkipValue(msg, at)
	}
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if end, err := walk(0); err != nil || end != len(msg) {
			b.Fatalf("walk = %d, %v; want %d", end, err, len(msg))
		}
	}
}
