package hostile

import (
	"bytes"
	"encoding/json"
	"reflect"

	acp "github.com/coder/acp-go-sdk"
)

// userWords takes in a session/update that the variant's client reads as a
// user_message_chunk (kind, as its reader read the variant, or acp-go-sdk's
// reading under go: it reads a variant it does not name holding content as
// one). Zed shows such a chunk as the person's own message, added to the
// prompt they sent when that is the thread's last entry; an ACP agent sends
// one when it replays a session the IDE loads, and may echo the prompt,
// which Zed skips. Any other is kept in ForgedWords. ide.mu held.
func (ide *executingIDE) userWords(params json.RawMessage, kind string, content json.RawMessage) {
	if kind != "user_message_chunk" && !(ide.cfg.Variant == "go" && goSDKUserMessage(params)) {
		return
	}
	if len(ide.loads) > 0 {
		return // a load's replay
	}
	for _, b := range ide.prompt {
		if sameJSON(b, content) {
			return // an echo of the person's prompt
		}
	}
	ide.res.ForgedWords = append(ide.res.ForgedWords, chunkText(ide.rd, content))
}

// goSDKUserMessage reports whether acp-go-sdk decodes a session/update's
// params as a user_message_chunk.
func goSDKUserMessage(params json.RawMessage) bool {
	var n acp.SessionNotification
	if json.Unmarshal(params, &n) != nil {
		return false
	}
	return n.Update.UserMessageChunk != nil
}

// sameJSON reports whether a and b are equal JSON values.
func sameJSON(a, b []byte) bool {
	decode := func(raw []byte) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var v any
		return v, d.Decode(&v) == nil
	}
	va, oka := decode(a)
	vb, okb := decode(b)
	return oka && okb && reflect.DeepEqual(va, vb)
}
