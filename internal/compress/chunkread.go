package compress

import (
	"bytes"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// The params of a text chunk as agents write them, in the pieces between
// its two free strings (the session id S and the text T) and its variant V:
//
//	{"sessionId":S,"update":{"sessionUpdate":"V","content":{"type":"text","text":T}}}
//
// Most of a stream is such chunks, so readUpdateOf reads params of
// exactly this form directly (readChunk) and leaves every other to
// acpparams.UpdateOf, which reads as acpparams.ReadUpdate does; readChunk
// gives ReadUpdate's Update for these (FuzzReadChunk).
const (
	chunkSession = `{"sessionId":`
	chunkUpdate  = `,"update":{"sessionUpdate":`
	chunkContent = `,"content":{"type":"text","text":`
	chunkTail    = `}}}`
)

// chunkKinds are the chunk variants readChunk reads, as written.
var chunkKinds = [...]string{`"agent_message_chunk"`, `"agent_thought_chunk"`, `"user_message_chunk"`}

// readUpdateOf is readUpdate of m's params, sharing the reading of a
// params that is not a plain chunk with the other features that read m
// (acpparams.UpdateOf). The session id of a chunk is decoded through ids.
func readUpdateOf(m *acpwire.Message, ids *acpparams.SessionIDs) (acpparams.Update, error) {
	// A chunk the bridge parsed in this form (nearly all) comes with its
	// parts found: no pass over its text.
	if u, ok := ids.ChunkOf(m, m.Params); ok {
		return u, nil
	}
	if u, ok := readChunk(m.Params); ok {
		return u, nil
	}
	return acpparams.UpdateOf(m, m.Params)
}

// readChunk reads params of exactly the chunk form above into what
// acpparams.ReadUpdate returns for them; ok is false for anything else.
// S and T are delimited as ReadUpdate delimits them (rawjson.SkipValue:
// up to the first unescaped quote, the bytes between left unchecked, as
// the bridge has checked the line as JSON), and S decodes as ReadUpdate
// decodes it.
func readChunk(params []byte) (u acpparams.Update, ok bool) {
	if !bytes.HasPrefix(params, []byte(chunkSession)) {
		return u, false
	}
	sid := len(chunkSession)
	i, ok := stringEnd(params, sid)
	if !ok || !bytes.HasPrefix(params[i:], []byte(chunkUpdate)) {
		return u, false
	}
	sidEnd := i
	update := i + len(`,"update":`)
	i += len(chunkUpdate)
	kind := ""
	for _, k := range chunkKinds {
		if bytes.HasPrefix(params[i:], []byte(k)) {
			kind = k[1 : len(k)-1]
			i += len(k)
			break
		}
	}
	if kind == "" || !bytes.HasPrefix(params[i:], []byte(chunkContent)) {
		return u, false
	}
	content := i + len(`,"content":`)
	text := i + len(chunkContent)
	if i, ok = stringEnd(params, text); !ok || string(params[i:]) != chunkTail {
		return u, false
	}
	if u.SessionID, ok = rawjson.String(params[sid:sidEnd]); !ok {
		return acpparams.Update{}, false
	}
	u.SessionUpdate = kind
	u.Text = params[text:i]
	u.Content = params[content : i+1]
	u.Raw = params[update : i+2]
	return u, true
}

// stringEnd returns the offset past the JSON string starting at b[i], as
// rawjson.SkipValue finds it; ok is false if no string starts there.
func stringEnd(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	end, err := rawjson.SkipValue(b, i)
	return end, err == nil
}
