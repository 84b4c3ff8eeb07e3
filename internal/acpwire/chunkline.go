package acpwire

import (
	"bytes"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// The text chunk as the agents recorded in this repository's transcripts
// write it, in the pieces between its two free strings (the session id and
// the text) and its variant:
//
//	{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":S,"update":{"sessionUpdate":"V","content":{"type":"text","text":T}}}}
//
// Most of a stream is such lines, so parse reads them by this form before
// anything else (parseChunkLine): a line of exactly this form is valid
// JSON whose names are all known, distinct and case-exact, which is what
// the general path would establish member by member.
const (
	chunkLineHead    = `{"jsonrpc":"2.0","method":"session/update","params":`
	chunkLineSession = `{"sessionId":`
	chunkLineUpdate  = `,"update":{"sessionUpdate":`
	chunkLineContent = `,"content":{"type":"text","text":`
	chunkLineTail    = `}}}}`
)

// parseChunkLine returns the message line holds if it is a text chunk of
// exactly the form above (S and T any valid JSON strings, V a chunk
// variant), with what parse would give it; otherwise nil, and parse reads
// the line member by member.
func parseChunkLine(dir Direction, line []byte) *Message {
	if !bytes.HasPrefix(line, []byte(chunkLineHead+chunkLineSession)) {
		return nil
	}
	i, ok := rawjson.ValidString(line, len(chunkLineHead)+len(chunkLineSession))
	if !ok || !bytes.HasPrefix(line[i:], []byte(chunkLineUpdate)) {
		return nil
	}
	i += len(chunkLineUpdate)
	variant := false
	for _, v := range chunkVariants {
		if bytes.HasPrefix(line[i:], []byte(v)) {
			i += len(v)
			variant = true
			break
		}
	}
	if !variant || !bytes.HasPrefix(line[i:], []byte(chunkLineContent)) {
		return nil
	}
	i, ok = rawjson.ValidString(line, i+len(chunkLineContent))
	if !ok || string(line[i:]) != chunkLineTail {
		return nil
	}
	m := newParsed()
	*m = Message{Dir: dir, Raw: line, parsedAt: addressOf(line), parsedLen: len(line), Kind: KindNotification, Method: "session/update",
		Params: line[len(chunkLineHead) : len(line)-1], env: envJSONRPC | envMethod | envParams, chunk: true, chunkLine: true}
	return m
}

// ChunkLine returns the parts of a text chunk the bridge read in the form
// above, so that a feature reading it need not look for them again: the
// message's params, its session id and text as written (JSON strings,
// quotes included) and its variant (agent_message_chunk, ...). ok is
// false for any other message, a replacement included unless its bytes
// have the form too. The text's end is where the form's tail starts, so
// finding it costs no pass over the text.
func (m *Message) ChunkLine() (params, sessionID []byte, variant string, text []byte, ok bool) {
	if !m.chunkLine || !m.intact() {
		return nil, nil, "", nil, false
	}
	// A middleware that set Raw or Params to other bytes (Message asks for
	// WithRaw or Patch instead) made the form's parts stale: the parts are
	// given only while Params is still the form's params within Raw.
	line := m.Raw
	sid := len(chunkLineHead) + len(chunkLineSession)
	if len(line) < sid+len(chunkLineTail) || !sameMemory(m.Params, line[len(chunkLineHead):len(line)-1]) {
		return nil, nil, "", nil, false
	}
	i, err := rawjson.SkipValue(line, sid)
	if err != nil {
		return nil, nil, "", nil, false // parseChunkLine read a string there
	}
	at := i + len(chunkLineUpdate)
	for _, v := range chunkVariants {
		if bytes.HasPrefix(line[at:], []byte(v)) {
			variant = v[1 : len(v)-1]
			at += len(v)
			break
		}
	}
	if variant == "" || at+len(chunkLineContent) > len(line)-len(chunkLineTail) {
		return nil, nil, "", nil, false
	}
	text = line[at+len(chunkLineContent) : len(line)-len(chunkLineTail)]
	return m.Params, line[sid:i], variant, text, true
}

// sameMemory reports whether a and b are the same bytes in memory.
func sameMemory(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
