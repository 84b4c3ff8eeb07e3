package acpmap

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// Line is one input line: either a bare JSON-RPC message or a recorded
// transcript entry {"ts":..., "dir":..., "msg": <message>}.
type Line struct {
	Msg json.RawMessage
	Dir Direction
	TS  time.Time
	// Held is the "bridge" member of an acp-bridge --record entry: set
	// ("answered", "replaced", "dropped", "consumed") for a message the
	// bridge received but did not pass on with its own bytes, which no peer
	// saw.
	Held string
}

// ReadLine reads one input line. A JSON object with a "msg" member and no
// "jsonrpc", "method" or "id" member is a transcript entry; anything else
// is a message. ts may be an RFC 3339 string or Unix seconds or
// milliseconds.
func ReadLine(b []byte) (Line, error) {
	b = bytes.TrimRight(b, "\r\n")
	var probe map[string]json.RawMessage
	if json.Unmarshal(b, &probe) == nil {
		msg, hasMsg := probe["msg"]
		_, a := probe["jsonrpc"]
		_, m := probe["method"]
		_, i := probe["id"]
		if hasMsg && !a && !m && !i {
			l := Line{Msg: msg}
			var dir string
			if json.Unmarshal(probe["dir"], &dir) == nil {
				l.Dir = ParseDirection(dir)
			}
			l.TS = parseTS(probe["ts"])
			_ = json.Unmarshal(probe["bridge"], &l.Held)
			return l, nil
		}
	}
	if !json.Valid(b) {
		return Line{}, &json.SyntaxError{}
	}
	return Line{Msg: json.RawMessage(b)}, nil
}

func parseTS(raw json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t
		}
		return time.Time{}
	}
	n, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || n <= 0 {
		return time.Time{}
	}
	if n > 1e12 {
		return time.UnixMilli(int64(n))
	}
	return time.Unix(int64(n), 0)
}
