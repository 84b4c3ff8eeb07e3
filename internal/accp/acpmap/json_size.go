package acpmap

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// Decoded size: a frame's text does not bound the JSON it decodes to. A
// table names its columns once and the JSON repeats them in every row (a
// 300 KB frame of wide rows is 200 MB of JSON), and the text codecs wrap
// each string in an object. Both ends therefore count, before building any
// JSON, about how much a frame decodes to (jsonSize), and hold it to
// Options.MaxJSONBytes: the decoder rejects a frame over it (E2003), the
// encoder refuses a message over it, and a run ends before a message that
// would take it over, so the encoder writes no frame the decoder rejects.
// The count is the JSON's text, escapes included (a scalar counts two
// bytes more than its ACCP text), plus jsonFixedBytes per message for what
// a mapping row adds (constants, defaults, id, sessionId); a codec's
// wrapper counts codecWrapBytes per string.

// DefaultMaxJSONBytes is the default of Options.MaxJSONBytes.
const DefaultMaxJSONBytes = 64 << 20

const (
	jsonFixedBytes = 512 // per message: what a mapping row adds
	codecWrapBytes = 64  // per string a codec wraps in an object
)

// frameJSONSize returns about how many bytes of JSON the message of frame
// f decodes to (see above), its refs resolved.
func frameJSONSize(f *accp.Frame) int {
	k := byFrame[[2]string{f.Intent, f.Op}]
	n := jsonFixedBytes
	for _, p := range f.Params {
		c := verbatim
		if k != nil {
			for _, fm := range k.fields {
				if fm.key == p.Key {
					c = fm.codec
				}
			}
		}
		n += codecJSONSize(c, p.Val)
	}
	return n
}

// codecJSONSize is jsonSize for a param written with codec c.
func codecJSONSize(c codec, v accp.Value) int {
	switch c {
	case textBlock:
		if v.Kind == accp.KindString {
			return codecWrapBytes + jsonSize(v)
		}
	case blocks, toolContent, locations:
		if v.Kind == accp.KindArray {
			n := 2 + max(len(v.List)-1, 0)
			for _, e := range v.List {
				if e.Kind == accp.KindString {
					n += codecWrapBytes
				}
				n += jsonSize(e)
			}
			return n
		}
	}
	return jsonSize(v)
}

// jsonSize returns about how many bytes of JSON fromValue(v) is (at least
// as many). It takes time linear in v's values and text.
func jsonSize(v accp.Value) int {
	switch v.Kind {
	case accp.KindString:
		return jsonStringSize(v.Str)
	case accp.KindArray:
		n := 2 + max(len(v.List)-1, 0)
		if head, ok := tableHead(v.List); ok {
			// Every row is an object naming every column.
			names := 0
			for _, c := range head {
				names += jsonStringSize(c.Str) + 1 // and a colon
			}
			rows := len(v.List) - 1
			n = 2 + max(rows-1, 0) + rows*(2+names+max(len(head)-1, 0))
			for _, row := range v.List[1:] {
				for _, e := range row.List {
					n += jsonSize(e)
				}
			}
			return n
		}
		for _, e := range v.List {
			n += jsonSize(e)
		}
		return n
	case accp.KindMap:
		n := 2 + max(len(v.Fields)-1, 0)
		for _, f := range v.Fields {
			n += jsonStringSize(f.Key) + 1 + jsonSize(f.Val)
		}
		return n
	case accp.KindPair:
		return 2 + jsonStringSize(v.Fields[0].Key) + 1 + jsonSize(v.Fields[0].Val)
	}
	return accp.ValueSize(v) + 2
}

// jsonStringSize returns the length of s as a JSON string, as MarshalJSON
// writes it: quotes, and escapes for quotes, backslashes, control
// characters, U+2028, U+2029 and invalid UTF-8 (each byte written \ufffd;
// ranging over s yields utf8.RuneError for such a byte and for a U+FFFD
// written out, which MarshalJSON keeps as it is).
func jsonStringSize(s string) int {
	n := 2
	for i, r := range s {
		switch {
		case r == '"', r == '\\', r == '\n', r == '\r', r == '\t', r == '\b', r == '\f':
			n += 2
		case r < 0x20, r == '\u2028', r == '\u2029':
			n += 6
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			n += 6
		default:
			n += utf8.RuneLen(r)
		}
	}
	return n
}

// tableHead returns the column names of items when fromValue reads them
// as a table (see fromTable).
func tableHead(items []accp.Value) ([]accp.Value, bool) {
	if len(items) == 0 || items[0].Kind != accp.KindPair || items[0].Fields[0].Key != colsKey {
		return nil, false
	}
	head := items[0].Fields[0].Val
	if head.Kind != accp.KindArray {
		return nil, false
	}
	for _, c := range head.List {
		if c.Kind != accp.KindString {
			return nil, false
		}
	}
	for _, row := range items[1:] {
		if row.Kind != accp.KindArray || len(row.List) != len(head.List) {
			return nil, false
		}
	}
	return head.List, true
}

// errJSONSize is the error for messages that decode to more than max
// bytes of JSON.
func errJSONSize(n, max int) *accp.Error {
	return &accp.Error{Code: accp.CodeBudgetExceeded, Offset: -1,
		Msg: fmt.Sprintf("decodes to about %d bytes of JSON, over the limit of %d", n, max)}
}
