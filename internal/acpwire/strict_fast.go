package acpwire

import (
	"bytes"
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// The strict check reads most messages twice as fast as the decoder it
// stands for by first trying a reading that can only accept: rawjson's
// validator walks the message once, skipping the bodies of strings many
// bytes at a time, and reports every member name on the way. When that
// reading is certain the message passes, the check is done; whenever it
// is not (a name written with an escape, a \u escape anywhere, invalid
// UTF-8, a name the case rules catch, a repeated name, deep nesting, or a
// message that is not valid JSON), the full decoder reads the message and
// gives the verdict and its reason. So the fast reading decides no
// refusal, and a message it accepts is one the decoder accepts
// (FuzzStrictFastAccept checks this on every input).

// fastMaxOpen bounds the opening brackets a message may hold, in strings
// or not, for the fast reading: far below the decoder's nesting limit
// (10,000), so the two can never disagree about depth.
const fastMaxOpen = 4096

// foldedName is a member name of the message being read fast: the offset
// of its object's opening brace, and where its folded form is in
// strictDecoder.folds.
type foldedName struct {
	object     int
	start, end int
}

// fastAccept reports whether raw certainly passes check. False means only
// that the full decoder must look.
func (d *strictDecoder) fastAccept(raw []byte) bool {
	if bytes.Count(raw, []byte{'{'})+bytes.Count(raw, []byte{'['}) > fastMaxOpen ||
		bytes.Contains(raw, []byte(`\u`)) || !utf8.Valid(raw) || rawjson.Portable(raw) != nil {
		return false
	}
	d.folds, d.names = d.folds[:0], d.names[:0]
	sure := true
	valid := rawjson.ValidNames(raw, fastMaxOpen, func(_, object, _ int, name, _ []byte) {
		sure = sure && d.noteName(object, name)
	})
	if !valid || !sure {
		return false
	}
	// Two names of one object equal under folding (a repeated name among
	// them) sort next to each other.
	fold := func(n foldedName) []byte { return d.folds[n.start:n.end] }
	slices.SortFunc(d.names, func(a, b foldedName) int {
		if c := cmp.Compare(a.object, b.object); c != 0 {
			return c
		}
		return bytes.Compare(fold(a), fold(b))
	})
	for i := 1; i < len(d.names); i++ {
		if d.names[i].object == d.names[i-1].object && bytes.Equal(fold(d.names[i]), fold(d.names[i-1])) {
			return false
		}
	}
	return true
}

// noteName adds name (as written, quotes included) of the object opening at
// offset object to d.names, and reports whether the fast reading can go
// on: false for a name written with an escape or one the case rules catch.
func (d *strictDecoder) noteName(object int, name []byte) bool {
	inner := name[1 : len(name)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		return false
	}
	start := len(d.folds)
	d.folds = foldName(d.folds, inner)
	if field, ok := readFieldOf(d.folds[start:]); ok && field != string(inner) {
		return false
	}
	d.names = append(d.names, foldedName{object: object, start: start, end: len(d.folds)})
	return true
}
