package acpparams

import (
	"reflect"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// TestSessionIDsChunkOf: a chunk read through SessionIDs is read as
// ChunkOf reads it, whatever was read through them before, and a stream's
// chunks naming one session share its string: no allocation.
func TestSessionIDsChunkOf(t *testing.T) {
	var ids SessionIDs
	for range 2 {
		for _, params := range sharedSeeds {
			m := message(params)
			if m == nil {
				continue
			}
			want, wantOK := ChunkOf(m, m.Params)
			got, ok := ids.ChunkOf(m, m.Params)
			if ok != wantOK || !reflect.DeepEqual(got, want) {
				t.Errorf("SessionIDs.ChunkOf(%s) = %+v, %v; ChunkOf = %+v, %v", params, got, ok, want, wantOK)
			}
		}
	}
	// A message that is no chunk leaves what ReadChunk was given as it was.
	u := Update{SessionID: "kept"}
	if m := message(sharedSeeds[1]); ids.ReadChunk(m, m.Params, &u) || !reflect.DeepEqual(u, Update{SessionID: "kept"}) {
		t.Errorf("ReadChunk of a tool call update read it, or changed what it was given: %+v", u)
	}
	m := message(`{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`)
	ids.ChunkOf(m, m.Params)
	if n := testing.AllocsPerRun(100, func() { ids.ChunkOf(m, m.Params) }); n != 0 {
		t.Errorf("reading a chunk of the session read last allocates %v times, want 0", n)
	}
}

// FuzzSessionIDs: SessionIDs.String gives what rawjson.String gives, for
// any literals in any order.
func FuzzSessionIDs(f *testing.F) {
	f.Add(`"s1"`, `"s1"`, `"s2"`)
	f.Add(`"s\u00e9"`, `"sé"`, `"s\u00e9"`)
	f.Add(`"a\"b"`, `"a\\"`, `""`)
	f.Add(`"\ud800"`, `"x"`, `7`)
	f.Add(`"é"`, "\"\xff\"", "\"\xff\"")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		var ids SessionIDs
		for _, lit := range []string{a, b, a, a, c, b, c, c} {
			got, ok := ids.String([]byte(lit))
			want, wantOK := rawjson.String([]byte(lit))
			if got != want || ok != wantOK {
				t.Fatalf("SessionIDs.String(%q) = %q, %v; rawjson.String = %q, %v", lit, got, ok, want, wantOK)
			}
		}
	})
}
