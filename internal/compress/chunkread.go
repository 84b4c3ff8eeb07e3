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
// (acpparams.SharedUpdateOf: read it, do not change it). A chunk is read
// into buf, its session id decoded through ids, and buf returned.
func readUpdateOf(m *acpwire.Message, ids *acpparams.SessionIDs, buf *acpparams.Update) (*acpparams.Update, error) {
	// A chunk the bridge parsed in this form (nearly all) comes with its
	// parts found: no pass over its text.
	if ids.ReadChunk(m, m.Params, buf) {
		return buf, nil
	}
	if readChunk(m.Params, buf) {
		return buf, nil
	}
	return acpparams.SharedUpdateOf(m, m.Params)
}

// readChunk reads params of exactly the chunk form above into *u, as what
// acpparams.ReadUpdate returns for them; it reports false, leaving *u as
// it was, for anything else.
// S and T are delimited as ReadUpdate delimits them (rawjson.SkipValue:
// up to the first unescaped quote, the bytes between left unchecked, as
// the bridge has checked the line as JSON), and S decodes as ReadUpdate
// decodes it.
func readChunk(params []byte, u *acpparams.Update) bool {
	if !bytes.HasPrefix(params, []byte(chunkSession)) {
		return false
	}
	sid := len(chunkSession)
	i, ok := stringEnd(params, sid)
	if !ok || !bytes.HasPrefix(params[i:], []byte(chunkUpdate)) {
		return false
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
		return false
	}
	content := i + len(`,"content":`)
	text := i + len(chunkContent)
	if i, ok = stringEnd(params, text); !ok || string(params[i:]) != chunkTail {
		return false
	}
	id, ok := rawjson.String(params[sid:sidEnd])
	if !ok {
		return false
	}
	*u = acpparams.Update{SessionID: id, SessionUpdate: kind, ToolCall: acpparams.ToolCall{Text: params[text:i],
		Content: params[content : i+1]}, Raw: params[update : i+2]}
	return true
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
