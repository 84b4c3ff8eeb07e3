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
	return &Message{Dir: dir, Raw: line, Kind: KindNotification, Method: "session/update",
		Params: line[len(chunkLineHead) : len(line)-1], env: envJSONRPC | envMethod | envParams, chunk: true}
}
