package audit

import (
	"encoding/json"
	"fmt"
)

// A tool's output (what a file read returned, what a command printed, a
// fetched page) is most of the bytes an agent sends and little of what a
// review is about: the decisions are made on inputs. By default a Log
// keeps each long string of a tool's output as a digest record (see
// digest.go) instead of the whole text; ContentFull keeps the text,
// redacted and capped like any other value.

// ContentMode says how a Log stores tools' output (ToolOutput values).
type ContentMode int

const (
	// ContentDigest, the zero value, stores each string of a tool's
	// output longer than PreviewBytes as {"$digest": true, "bytes",
	// "sha256", "preview", "redactions"}; a shorter string is kept,
	// redacted. The oldText and newText of a diff ({"type": "diff"}) are
	// kept, redacted, up to MaxDiffBytes each, while the whole output
	// fits in Options.MaxFieldBytes.
	ContentDigest ContentMode = iota
	// ContentFull stores a tool's output as any other value: redacted,
	// strings over Options.MaxValueBytes capped.
	ContentFull
)

// PreviewBytes is the most a digest record's preview holds.
const PreviewBytes = 1024

// MaxDiffBytes is the longest oldText or newText of a diff that
// ContentDigest keeps whole.
const MaxDiffBytes = 64 << 10

// ParseContentMode returns the mode named s: "digest" or "full".
func ParseContentMode(s string) (ContentMode, error) {
	switch s {
	case "digest":
		return ContentDigest, nil
	case "full":
		return ContentFull, nil
	}
	return 0, fmt.Errorf("audit content %q: want digest or full", s)
}

// String returns the mode's name as ParseContentMode accepts it.
func (m ContentMode) String() string {
	if m == ContentFull {
		return "full"
	}
	return "digest"
}

// ToolOutput is a tool's output as the agent reported it and the IDE
// received it: the JSON of a tool call's content or rawOutput, used as is.
// As Event.Output, or as a ToolCall's Result or Error, it is stored as
// the Log's Options.Content says. The same bytes given as Output and as
// the mirror's Result or Error are read once.
type ToolOutput json.RawMessage

// digestText is a string of a tool's output too long to keep: its JSON
// text exactly as received (quotes and escapes included), a sub-slice of
// the output. The redactor turns it into a digest record.
type digestText struct{ raw []byte }

// diffText is the oldText or newText of a diff, kept whole up to
// MaxDiffBytes: the redactor redacts it without the string cap.
type diffText string

// outputTree returns the tree of a tool's output, redacted, with its
// canonical form made once (a *sharedTree). The same output given again,
// in a later record, is not read again (lastOutput).
func (l *Log) outputTree(raw ToolOutput) (*sharedTree, error) {
	if st := l.last.get(raw); st != nil {
		return st, nil
	}
	st, err := l.readOutput(raw, false)
	if err == nil {
		l.last.put(raw, st)
	}
	return st, err
}

// readOutput is outputTree without the cache; valid says raw is known
// to be valid JSON (scanValidOutput).
func (l *Log) readOutput(raw ToolOutput, valid bool) (*sharedTree, error) {
	if l.opts.Content == ContentFull {
		tree, err := decodeTree(raw)
		if err != nil {
			return nil, err
		}
		st := &sharedTree{v: l.red.tree(tree)}
		if canon, err := appendCanonical(nil, st.v); err == nil {
			// Made now rather than on first use, so that the tree can
			// be kept for the next record (lastOutput.put).
			st.canon = canon
		}
		return st, nil
	}
	scan := l.red.scanOutput
	if valid {
		scan = l.red.scanValidOutput
	}
	if canon, ok := scan(raw); ok {
		return scannedTree(canon), nil
	}
	st, diffs, err := l.digestTree(raw, MaxDiffBytes)
	if err != nil || !diffs {
		return st, err
	}
	// Kept diffs that make the output too large to keep at all are
	// digested too: a review then has the digests rather than only the
	// size of the whole.
	if len(st.canon) <= l.opts.MaxFieldBytes-len(`{"value":}`) {
		return st, nil
	}
	st, _, err = l.digestTree(raw, 0)
	return st, err
}

// digestTree decodes a tool's output with its long strings as digest
// records and diffs kept up to diffCap, redacts it and makes its canonical
// form. diffs says whether a diff text was kept.
func (l *Log) digestTree(raw []byte, diffCap int) (st *sharedTree, diffs bool, err error) {
	d := fastDecoder{jsonCursor: jsonCursor{data: raw}, digest: PreviewBytes + 2, diffCap: diffCap, marks: true}
	tree, ok := d.value(0)
	if d.space(); !ok || d.i != len(d.data) {
		// What the digest reader does not take (nesting deeper than
		// maxDepth) is decoded whole.
		if tree, err = decodeTree(raw); err != nil {
			return nil, false, err
		}
	}
	st = &sharedTree{v: l.red.tree(tree)}
	// Sized for the common cases: an output shorter than a digest's
	// preview is about as long encoded; a longer one is mostly digests.
	if st.canon, err = appendCanonical(make([]byte, 0, min(len(raw), 2*PreviewBytes)+256), st.v); err != nil {
		return nil, false, err
	}
	return st, d.keptDiff, nil
}

// digestString reads the string at d.data[d.i] == '"' for a tool's
// output: a *digestText when its JSON text is longer than d.digest, else
// the decoded string (invalid UTF-8 and lone surrogates replaced as
// encoding/json does).
func (d *fastDecoder) digestString() (any, bool) {
	lit, ok := d.stringText()
	if !ok {
		return nil, false
	}
	if len(lit) > d.digest {
		return &digestText{raw: lit}, true
	}
	return unquote(lit), true
}

// keepDiff replaces the digested oldText and newText of a diff by their
// text when they are at most d.diffCap bytes long.
func (d *fastDecoder) keepDiff(m map[string]any) {
	if m["type"] != "diff" {
		return
	}
	for _, k := range [...]string{"oldText", "newText"} {
		dt, ok := m[k].(*digestText)
		if !ok || len(dt.raw) > d.diffCap+2 {
			continue
		}
		var s string
		if json.Unmarshal(dt.raw, &s) != nil {
			continue
		}
		m[k] = diffText(s)
		d.keptDiff = true
	}
}
