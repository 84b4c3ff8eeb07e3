package acpparams

import "github.com/acp-bridge/acp-bridge/internal/rawjson"

// content reads the content member at b[at] into t. A tool call's content
// is an array of items; anything but an array or null is bad for a tool
// call (contentBad), as is an item that is not an object, an item's type
// that is not a string, a diff's path or a terminal's terminalId that is
// not a string: a client that coerces them could write somewhere, or show
// a terminal, the bridge did not judge. A message chunk's content is one
// content block, whose text is read.
func (r *reader) content(at int, t *ToolCall) (int, error) {
	b := r.b
	var end int
	var err error
	switch b[at] {
	case '[':
		t.Items = t.Items[:0]
		end, err = rawjson.ReadArray(b, at, func(at int) (int, error) {
			var c ContentItem
			end, err := r.item(at, &c)
			if t.Items == nil {
				// An empty array leaves Items nil, as append would.
				t.Items = r.spareItems
			}
			t.Items = append(t.Items, c)
			return end, err
		})
	case '{':
		r.setContentBad("content is not an array")
		end, err = r.block(at, &t.Text)
	default:
		var v []byte
		v, end, err = r.skip(at)
		if err == nil && string(v) == "null" {
			// null says nothing of the content, as Zed reads it (an
			// Option: None keeps what the call showed), so Content stays
			// nil: an update with it leaves the call's diffs and
			// terminals as they were.
			return end, nil
		}
		if err == nil {
			r.setContentBad("content is not an array")
		}
	}
	if err != nil {
		return 0, err
	}
	t.Content = b[at:end]
	return end, nil
}

func (r *reader) setContentBad(why string) {
	if r.contentBad == "" {
		r.contentBad = why
	}
}

// itemNames are the members of a content item the reader uses.
const itemNames = nContent | nType | nPath | nTerminalID | nOldText | nNewText

// item reads one content item at b[at] into c.
func (r *reader) item(at int, c *ContentItem) (int, error) {
	b := r.b
	if b[at] != '{' {
		r.setContentBad("a content item is not an object")
		return r.known.SkipValue(b, at)
	}
	var typ, path, tid []byte
	end, err := r.object(at, itemNames, nContent, func(_ names, at int) (int, error) {
		if b[at] == '{' {
			return r.block(at, &c.Text)
		}
		return r.known.SkipValue(b, at)
	}, func(bit names, v []byte) {
		switch bit {
		case nType:
			typ = v
		case nPath:
			path = v
		case nTerminalID:
			tid = v
		case nOldText:
			c.OldText = v
		case nNewText:
			c.NewText = v
		}
	})
	if err != nil {
		return 0, err
	}
	ok := true
	if typ != nil {
		c.Type, ok = rawjson.StringIn(typ, itemTypes)
	}
	switch {
	case !ok:
		r.setContentBad("a content item's type is not a string")
	case c.Type == "diff":
		if c.Path, ok = rawjson.String(path); !ok {
			r.setContentBad("a diff's path is not a string")
		}
	case c.Type == "terminal" && tid != nil:
		if c.TerminalID, ok = rawjson.String(tid); !ok {
			r.setContentBad("a terminal's terminalId is not a string")
		}
	}
	return end, nil
}

// itemTypes are the types of content item ACP defines: a type naming one
// decodes (rawjson.StringIn) without allocating.
var itemTypes = []string{"content", "diff", "terminal"}

// block reads the text member of the content block at b[at] into text.
func (r *reader) block(at int, text *[]byte) (int, error) {
	return r.object(at, nText, 0, nil, func(_ names, v []byte) { *text = v })
}

// locations reads the locations member at b[at] into t: an array of
// objects whose path is a string (or null: no path), or null. Anything
// else is bad.
func (r *reader) locations(at int, t *ToolCall) (int, error) {
	b := r.b
	const bad = "locations are not a list of paths"
	if b[at] != '[' {
		v, end, err := r.skip(at)
		if err == nil && string(v) != "null" {
			r.setBad(bad)
		}
		return end, err
	}
	t.Locations = []string{}
	return rawjson.ReadArray(b, at, func(at int) (int, error) {
		path := ""
		var end int
		var err error
		if b[at] == '{' {
			end, err = r.object(at, nPath, 0, nil, func(_ names, v []byte) {
				var ok bool
				if path, ok = rawjson.String(v); !ok && string(v) != "null" {
					r.setBad(bad)
				}
			})
		} else {
			var v []byte
			if v, end, err = r.skip(at); err == nil && string(v) != "null" {
				r.setBad(bad)
			}
		}
		t.Locations = append(t.Locations, path)
		return end, err
	})
}
