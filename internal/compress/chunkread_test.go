package compress

import (
	"reflect"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// chunkReadCases are params readChunk must read, and params it must leave
// to acpparams.ReadUpdate.
var chunkReadCases = []struct {
	name, params string
	fast         bool
}{
	{"agent chunk", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`, true},
	{"thought chunk", `{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"a\nb"}}}`, true},
	{"user chunk", `{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":""}}}`, true},
	{"escaped session", `{"sessionId":"s\u0031","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\"x\""}}}`, true},
	{"escaped text", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\ud83d\ude00 \u00e9"}}}`, true},
	{"extra member", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","x":1}}}`, false},
	{"text then member", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","text":"b"}}}`, false},
	{"spaces", `{"sessionId": "s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}`, false},
	{"other order", `{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}},"sessionId":"s1"}`, false},
	{"tool call", `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c","content":[]}}`, false},
	{"image", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"x"}}}`, false},
	{"escaped kind", `{"sessionId":"s1","update":{"sessionUpdate":"agent\u005fmessage_chunk","content":{"type":"text","text":"a"}}}`, false},
	{"session not a string", `{"sessionId":7,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}`, false},
	{"bad escape, read as ReadUpdate reads it", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\x"}}}`, true},
	{"raw control, read as ReadUpdate reads it", "{\"sessionId\":\"s1\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"a\tb\"}}}", true},
	{"trailing", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}} `, false},
	{"truncated", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}`, false},
}

// TestReadChunk checks which params readChunk reads, and that what it
// reads is what acpparams.ReadUpdate reads.
func TestReadChunk(t *testing.T) {
	for _, c := range chunkReadCases {
		t.Run(c.name, func(t *testing.T) {
			var u acpparams.Update
			fast := readChunk([]byte(c.params), &u)
			if fast != c.fast {
				t.Fatalf("readChunk ok = %v, want %v", fast, c.fast)
			}
			checkReadChunk(t, []byte(c.params))
		})
	}
}

// FuzzReadChunk checks that readChunk, where it reads params, reads what
// acpparams.ReadUpdate reads, and that readUpdate agrees with ReadUpdate
// on every input.
func FuzzReadChunk(f *testing.F) {
	for _, c := range chunkReadCases {
		f.Add([]byte(c.params))
	}
	f.Fuzz(func(t *testing.T, params []byte) { checkReadChunk(t, params) })
}

// readUpdate is readUpdateOf without a message to share the reading
// with: readChunk, or else acpparams.ReadUpdate.
func readUpdate(params []byte) (acpparams.Update, error) {
	var u acpparams.Update
	if readChunk(params, &u) {
		return u, nil
	}
	return acpparams.ReadUpdate(params)
}

func checkReadChunk(t *testing.T, params []byte) {
	t.Helper()
	want, wantErr := acpparams.ReadUpdate(params)
	got, gotErr := readUpdate(params)
	if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("readUpdate(%q) = %+v, %v\nReadUpdate gives %+v, %v", params, got, gotErr, want, wantErr)
	}
	if u := (acpparams.Update{}); readChunk(params, &u) && wantErr != nil {
		t.Fatalf("readChunk read %q, which ReadUpdate refuses: %v", params, wantErr)
	}
}

// BenchmarkReadChunk measures reading a 1 KiB prose chunk's params (with
// escaped newlines, as agents write them): readUpdate, which takes the
// chunk form directly, against acpparams.ReadUpdate, which it stands in
// for.
func BenchmarkReadChunk(b *testing.B) {
	params := []byte(`{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` +
		strings.Repeat(`the bridge forwards each message as it came.\n`, 23) + `"}}}`)
	b.Run("readUpdate", func(b *testing.B) {
		b.SetBytes(int64(len(params)))
		for b.Loop() {
			readUpdate(params)
		}
	})
	b.Run("ReadUpdate", func(b *testing.B) {
		b.SetBytes(int64(len(params)))
		for b.Loop() {
			acpparams.ReadUpdate(params)
		}
	})
	// readUpdateOf as the pipeline calls it, on a chunk the bridge parsed
	// (a copy of one parsed message each round, so the parse is not
	// measured).
	parsed, err := acpwire.Parse(acpwire.AgentToClient, []byte(`{"jsonrpc":"2.0","method":"session/update","params":`+string(params)+`}`))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("readUpdateOf", func(b *testing.B) {
		var ids acpparams.SessionIDs
		b.SetBytes(int64(len(params)))
		for b.Loop() {
			m := *parsed
			var u acpparams.Update
			if _, err := readUpdateOf(&m, &ids, &u); err != nil {
				b.Fatal(err)
			}
		}
	})
}
