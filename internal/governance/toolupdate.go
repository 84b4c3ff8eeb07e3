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
	may := false
	readable := eachNamed(params, "update", func(update []byte) bool {
		return eachNamed(update, "sessionUpdate", func(v []byte) bool {
			if s, ok := rawjson.String(v); !ok || strings.HasPrefix(s, "tool_call") {
				may = true
			}
			return true
		})
	})
	return may || !readable
}

// eachNamed calls fn with the value of every member of obj named key,
// repeats included, and reports whether obj could be read as an object
// and fn said so of every value.
func eachNamed(obj []byte, key string, fn func(v []byte) bool) bool {
	members, err := rawjson.Members(obj)
	if err != nil {
		return false
	}
	for _, m := range members {
		if m.Key == key && !fn(m.Value) {
			return false
		}
	}
	return true
}
