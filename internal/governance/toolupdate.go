package governance

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// A tool call update can carry megabytes of tool output in its content
// and rawOutput, and the bridge reads none of it: only the content items'
// type, a diff's path and a terminal's terminalId. So a tool_call or
// tool_call_update is read in one pass, descending into the members the
// bridge judges and stepping over every other value without decoding it.
// That reading is only as good as the bytes are unambiguous: the message
// has been read strictly first (no name twice in an object, valid UTF-8:
// strictlyRead), so the one member of each name is the one the IDE reads,
// wherever the agent put it.

// toolCallFields are the parts of a tool_call, tool_call_update or a
// permission request's toolCall the bridge reads.
type toolCallFields struct {
	ToolCallID string          `json:"toolCallId"`
	Title      *string         `json:"title"`
	Kind       *string         `json:"kind"`
	Status     string          `json:"status"`
	RawInput   json.RawMessage `json:"rawInput"`
	RawOutput  json.RawMessage `json:"rawOutput"`
	Content    json.RawMessage `json:"content"`
	Locations  []struct {
		Path string `json:"path"`
	} `json:"locations"`
	Meta json.RawMessage `json:"_meta"`
	// content is what the bridge read of Content, once contentRead says
	// it was read (see readContent).
	content     toolContent
	contentRead bool
}

// toolContent is what the bridge reads of a tool call's content.
type toolContent struct {
	// diffs are the paths of its diff items.
	diffs []string
	// terminals are the terminalIds of its terminal items ("" for one
	// without).
	terminals []string
}

// readContent reads f.Content once, keeping what it found for merge and
// the terminal check; it returns why the content cannot be judged, if it
// cannot.
func (f *toolCallFields) readContent() error {
	if f.contentRead {
		return nil
	}
	c, err := contentOf(f.Content)
	if err != nil {
		return err
	}
	f.content, f.contentRead = c, true
	return nil
}

// contentDiffs returns the paths of the diffs in f's content.
func (f *toolCallFields) contentDiffs() []string {
	if f.readContent() != nil {
		return nil
	}
	return f.content.diffs
}

// contentOf reads a tool call's content (absent or null: nothing); see
// readContentAt.
func contentOf(content []byte) (toolContent, error) {
	t := bytes.TrimSpace(content)
	if len(t) == 0 {
		return toolContent{}, nil
	}
	c, _, bad, err := readContentAt(t, 0)
	if err == nil {
		err = bad
	}
	return c, err
}

// readContentAt reads the content value at b[at] and returns what it
// found, the offset past the value, why the content cannot be judged (bad)
// and whether b is not JSON there (err). Content that is not an array
// (null is no content), an item that is not an object, an item's type
// that is not a string, a diff's path or a terminal's terminalId that is
// not a string are bad: a client that coerces them could write somewhere,
// or show a terminal, the bridge did not judge.
func readContentAt(b []byte, at int) (c toolContent, end int, bad, err error) {
	if b[at] != '[' {
		if end, err = rawjson.SkipValue(b, at); err == nil && string(b[at:end]) != "null" {
			bad = errors.New("content is not an array")
		}
		return c, end, bad, err
	}
	end, err = rawjson.ReadArray(b, at, func(at int) (int, error) {
		if b[at] != '{' {
			if bad == nil {
				bad = errors.New("a content item is not an object")
			}
			return rawjson.SkipValue(b, at)
		}
		var typ, path, tid []byte
		end, err := rawjson.ReadObject(b, at, func(name []byte, at int) (int, error) {
			end, err := rawjson.SkipValue(b, at)
			if err != nil {
				return 0, err
			}
			switch string(rawjson.Key(name)) {
			case "type":
				typ = b[at:end]
			case "path":
				path = b[at:end]
			case "terminalId":
				tid = b[at:end]
			}
			return end, nil
		})
		if err != nil || bad != nil {
			return end, err
		}
		kind, ok := "", true
		if typ != nil {
			kind, ok = rawjson.String(typ)
		}
		switch {
		case !ok:
			bad = errors.New("a content item's type is not a string")
		case kind == "diff":
			p, ok := rawjson.String(path)
			if !ok {
				bad = errors.New("a diff's path is not a string")
			}
			c.diffs = append(c.diffs, p)
		case kind == "terminal":
			id, ok := "", true
			if tid != nil {
				id, ok = rawjson.String(tid)
			}
			if !ok {
				bad = errors.New("a terminal's terminalId is not a string")
			}
			c.terminals = append(c.terminals, id)
		}
		return end, nil
	})
	if err != nil || bad != nil {
		return toolContent{}, end, bad, err
	}
	return c, end, nil, nil
}

type updateParams struct {
	// bad says which judged member has the wrong type, if one has.
	bad       string
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string `json:"sessionUpdate"`
		toolCallFields
	} `json:"update"`
}

// isToolCall reports whether a sessionUpdate names a tool call variant.
func isToolCall(kind string) bool { return kind == "tool_call" || kind == "tool_call_update" }

// parseToolUpdate reads the fields of a tool_call or tool_call_update
// notification the bridge uses in one pass over params (see the note at
// the top of this file): the large ones (content, rawOutput) stay raw
// sub-slices of params, and of content only what contentOf reads is
// decoded. It reports false when params or its update is not an object.
func parseToolUpdate(params []byte) (*updateParams, bool) {
	p := &updateParams{}
	str := func(name string, v []byte) (string, bool) {
		s, ok := rawjson.String(v)
		if !ok && !bytes.Equal(v, []byte("null")) && p.bad == "" {
			p.bad = name + " is not a string"
		}
		return s, ok
	}
	u := &p.Update
	var contentBad error
	readUpdate := func(name []byte, at int) (int, error) {
		key := rawjson.Key(name)
		if string(key) == "content" {
			// Read where it is met, as the one pass goes: a message
			// chunk's content, an object, is stepped over.
			c, end, bad, err := readContentAt(params, at)
			if err == nil {
				u.Content = params[at:end]
				u.content, u.contentRead, contentBad = c, bad == nil, bad
			}
			return end, err
		}
		end, err := rawjson.SkipValue(params, at)
		if err != nil {
			return 0, err
		}
		v := params[at:end]
		switch string(key) {
		case "sessionUpdate":
			u.SessionUpdate, _ = rawjson.String(v)
		case "toolCallId":
			u.ToolCallID, _ = str("toolCallId", v)
		case "title":
			if s, ok := str("title", v); ok {
				u.Title = &s
			}
		case "kind":
			if s, ok := str("kind", v); ok {
				u.Kind = &s
			}
		case "status":
			u.Status, _ = str("status", v)
		case "rawInput":
			u.RawInput = v
		case "rawOutput":
			u.RawOutput = v
		case "_meta":
			u.Meta = v
		case "locations":
			if err := unmarshalStrict(v, &u.Locations); err != nil {
				u.Locations = nil
				if p.bad == "" {
					p.bad = "locations are not a list of paths"
				}
			}
		}
		return end, nil
	}
	sawUpdate := false
	_, err := rawjson.ReadObject(params, 0, func(name []byte, at int) (int, error) {
		switch string(rawjson.Key(name)) {
		case "sessionId":
			end, err := rawjson.SkipValue(params, at)
			if err == nil {
				p.SessionID, _ = str("sessionId", params[at:end])
			}
			return end, err
		case "update":
			sawUpdate = true
			return rawjson.ReadObject(params, at, readUpdate)
		}
		return rawjson.SkipValue(params, at)
	})
	if err != nil || !sawUpdate {
		return nil, false
	}
	if contentBad != nil && isToolCall(u.SessionUpdate) && p.bad == "" {
		// Only a tool call's content is judged.
		p.bad = contentBad.Error()
	}
	return p, true
}

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
