package acpwire

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// FuzzChunkFastPath checks the text chunk fast path (chunkCheck, fed while
// the line is validated) against the reference below, which records every
// member down to chunkDepth and compares them after validation: the fast
// path may send more chunks to the full check than the reference (it keeps
// fewer names), never fewer.
func FuzzChunkFastPath(f *testing.F) {
	const head = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s",`
	for _, s := range []string{
		head + `"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`,
		head + `"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","Text":"b"}}}}`,
		head + `"update":{"sessionUpdate":"tool_call"},"_meta":{"sessionUpdate":"agent_message_chunk"}}}`,
		head + `"update":{"sessionUpdate":"agent_message_chunk"},"_meta":{"sessionUpdate":"tool_call","zz":1,"ZZ":1}}}`,
		`{"jsonrpc":"2.0","method":"session/update","x":{"update":{"sessionUpdate":"agent_message_chunk"}},"params":{"update":{"sessionUpdate":"user_message_chunk"}}}`,
		head + "\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"\u212aind\":\"execute\"}}}",
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s\"\\","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"}}}}\"\\"}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, ok := parse(AgentToClient, line)
		if !ok || !m.chunk {
			return
		}
		if !refChunk(line) {
			t.Fatalf("the fast path takes a line the reference sends to the full check: %q", line)
		}
		checkChunkLine(t, m)
	})
}

// checkChunkLine fails t unless the parts ChunkLine gives for m, if any, are
// the members a general reading finds where they are.
func checkChunkLine(t *testing.T, m *Message) {
	t.Helper()
	params, sid, variant, text, ok := m.ChunkLine()
	if !ok {
		return
	}
	wantSID, _ := rawjson.Get(m.Raw, "params", "sessionId")
	wantVariant, _ := rawjson.GetString(m.Raw, "params", "update", "sessionUpdate")
	wantText, _ := rawjson.Get(m.Raw, "params", "update", "content", "text")
	if !bytes.Equal(params, m.Params) || !bytes.Equal(sid, wantSID) || variant != wantVariant || !bytes.Equal(text, wantText) {
		t.Fatalf("ChunkLine(%q) = %q %q %q %q, want the params, %q %q %q", m.Raw, params, sid, variant, text, wantSID, wantVariant, wantText)
	}
}

// refChunk is the reference: every member down to chunkDepth recorded,
// then compared pairwise.
func refChunk(line []byte) bool {
	var members []refMember
	ok := rawjson.ValidNames(line, chunkDepth, func(depth, object, at int, name, value []byte) {
		start := cap(line) - cap(name)
		members = append(members, refMember{depth: int32(depth), object: int32(object), at: int32(at), nameStart: int32(start), nameEnd: int32(start + len(name))})
	})
	return ok && refCheckChunk(line, members)
}

// refChunkName reports whether name is one of the names a text chunk carries,
// which are read fields themselves, so need no case check of their own.
func refChunkName(name []byte) bool {
	switch string(name) {
	case "jsonrpc", "method", "params", "sessionId", "update", "sessionUpdate", "content", "type", "text", "_meta":
		return true
	}
	return false
}

// refASCII reports whether b is all ASCII: two ASCII names of different
// lengths are never equal under case folding.
func refASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// refMember is one member name seen while a line was validated.
type refMember struct {
	depth              int32
	object, at         int32 // see rawjson.ValidNames
	nameStart, nameEnd int32 // the name, quoted, in the line
}

// refCheckChunk reports whether line, a session/update whose members down to
// chunkDepth are members, is a text chunk that needs no further check: no
// two names down to its content block are equal under case folding (or
// escaped: the full check decodes those), none differs only in case from a
// read field, and its update.sessionUpdate is a chunk variant. Anything
// else returns false, and the bridge runs the full check. Deeper names,
// and the UTF-8 of the chunk's text, are not checked: that would cost a
// pass over every byte of the stream, and the bridge reads nothing there.
func refCheckChunk(line []byte, members []refMember) bool {
	params, update, variant := -1, -1, -1
	name := func(mb refMember) []byte { return line[mb.nameStart:mb.nameEnd] }
	for i, mb := range members {
		key := line[mb.nameStart+1 : mb.nameEnd-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		if !refChunkName(key) {
			var buf [64]byte
			if field, known := readFolds[string(foldName(buf[:0], key))]; known && field != string(key) {
				return false
			}
		}
		for _, other := range members[:i] {
			if other.object != mb.object {
				continue
			}
			ok := line[other.nameStart+1 : other.nameEnd-1]
			if len(ok) == len(key) || !refASCII(ok) || !refASCII(key) {
				if bytes.EqualFold(ok, key) {
					return false
				}
			}
		}
	}
	for _, mb := range members {
		if mb.depth == 1 && string(name(mb)) == `"params"` {
			params = int(mb.at)
		}
	}
	for _, mb := range members {
		if mb.depth == 2 && int(mb.object) == params && string(name(mb)) == `"update"` {
			update = int(mb.at)
		}
	}
	for _, mb := range members {
		if mb.depth == 3 && int(mb.object) == update && string(name(mb)) == `"sessionUpdate"` {
			variant = int(mb.at)
		}
	}
	if variant < 0 {
		return false
	}
	end, err := rawjson.SkipValue(line, variant)
	if err != nil {
		return false
	}
	switch string(line[variant:end]) {
	case `"agent_message_chunk"`, `"agent_thought_chunk"`, `"user_message_chunk"`:
		return true
	}
	return false
}

// FuzzChunkLine checks that a line parseChunkLine reads by its form is
// read alike member by member: the same kind, method, members, envelope
// and fast-path verdict.
func FuzzChunkLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s\u0000","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"a\"}}}}\"b"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"\ud800"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}} `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		c := parseChunkLine(AgentToClient, line)
		if c == nil {
			return
		}
		g, ok := parseMembers(AgentToClient, line)
		if !ok {
			t.Fatalf("parseChunkLine read a line that is not JSON: %q", line)
		}
		if c.Kind != g.Kind || c.Method != g.Method || !bytes.Equal(c.Params, g.Params) || c.ID != nil || g.ID != nil ||
			g.Result != nil || g.Error != nil || c.env != g.env || c.chunk != g.chunk || c.invalid != g.invalid || c.notJSON != g.notJSON {
			t.Fatalf("read two ways:\nform    %+v\nmembers %+v\nline %q", c, g, line)
		}
	})
}
