package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// A tool call update is read by acpparams.ReadUpdate in one pass, which is
// only as good as the bytes are unambiguous: the message has been read
// strictly first (no name twice in an object, valid UTF-8: strictlyRead),
// so the one member of each name is the one the IDE reads, wherever the
// agent put it. mayBeToolCall is for the messages that failed that.

// mayBeToolCall reports whether some reading of a session/update's params
// makes it a tool call: any of its (possibly repeated) update members has
// a sessionUpdate member naming a tool call variant, or the params cannot
// be read at all. It is asked only of params that failed the strict
// reading.
func mayBeToolCall(params []byte) bool {
	top, err := rawjson.Members(params)
	if err != nil {
		return true
	}
	for _, t := range top {
		if t.Key != "update" {
			continue
		}
		fields, err := rawjson.Members(t.Value)
		if err != nil {
			return true
		}
		for _, f := range fields {
			if f.Key != "sessionUpdate" {
				continue
			}
			s, ok := rawjson.String(f.Value)
			if !ok || strings.HasPrefix(s, "tool_call") {
				return true
			}
		}
	}
	return false
}
