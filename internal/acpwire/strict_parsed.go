package acpwire

import (
	"bytes"
	"cmp"
	"errors"
	"slices"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// A message the strict check reads on the forwarding path was parsed
// first (see parse), so it is known to be one valid JSON value: every
// string in it properly escaped and free of control characters. Reading it
// fast again with rawjson's validator would check all of that a second
// time, which is most of the work for a tool's output full of escaped
// newlines. checkParsed therefore reads the structure only, stepping over
// strings as rawjson.SkipValue does, and otherwise decides as fastAccept
// does: what it cannot be certain of goes to the full decoder, which gives
// the verdict. FuzzCheckParsed checks that its verdict is the decoder's on
// every input parse accepts.

// checkParsed is check for raw that parse accepted.
func (d *strictDecoder) checkParsed(raw []byte) error {
	_, err := d.checkParsedKnown(raw)
	return err
}

// checkParsedKnown is checkParsed that also returns, when the fast reading
// accepted raw, where it found raw's long string literals (see
// rawjson.KnownStrings); none otherwise.
func (d *strictDecoder) checkParsedKnown(raw []byte) (rawjson.StringSpans, error) {
	return d.checkParsedHint(raw, rawjson.Facts{})
}

// checkParsedHint is checkParsedKnown for raw of which parse also learnt
// facts (see fastAcceptParsedHint); the zero Facts claim nothing of raw.
func (d *strictDecoder) checkParsedHint(raw []byte, facts rawjson.Facts) (rawjson.StringSpans, error) {
	if d.fastAcceptParsedHint(raw, facts) {
		return d.known.Spans(), nil
	}
	d.known.Reset(nil)
	return rawjson.StringSpans{}, d.decode(raw)
}

// parsedFacts returns what parse learnt of m's strings as it validated
// the line (no \u escape, every byte ASCII), so that the strict check need
// not read the bytes again for them, while m is intact; once not, the zero
// Facts, which claim nothing.
func (m *Message) parsedFacts() rawjson.Facts {
	if !m.intact() {
		return rawjson.Facts{}
	}
	return m.facts
}

// errNotSure stops the structure walk of fastAcceptParsed.
var errNotSure = errors.New("acpwire: the fast reading is not sure")

// fastAcceptParsed reports whether raw, which parse accepted, certainly
// passes check. False means only that the full decoder must look.
func (d *strictDecoder) fastAcceptParsed(raw []byte) bool {
	return d.fastAcceptParsedHint(raw, rawjson.Facts{})
}

// fastAcceptParsedHint is fastAcceptParsed told what parse learnt of raw's
// strings as it validated them (rawjson.ValidNamesFacts), so that it reads
// raw's bytes again for nothing parse already knows. With
// facts.NoUEscape, no string holds a \u escape, and it need not search for
// one: a tool's output of prose holds an escaped newline every few dozen
// bytes, and the search stopped at each backslash. Without it any `\u` in
// raw, even after an escaped backslash, sends raw to the decoder. With
// facts.ASCII, every byte of raw is below 0x80, so raw is valid UTF-8
// without the pass of utf8.Valid over it. facts.Longest, where raw's
// longest string literal is, lets the walk step over that literal (a
// tool's output, tens of KiB) by its end without reading it.
func (d *strictDecoder) fastAcceptParsedHint(raw []byte, facts rawjson.Facts) bool {
	if !facts.NoUEscape && bytes.Contains(raw, []byte(`\u`)) || !facts.ASCII && !utf8.Valid(raw) {
		return false
	}
	d.folds, d.names = d.folds[:0], d.names[:0]
	d.known.ResetLongest(raw, facts.Longest)
	w := nameWalk{d: d, b: raw}
	end, err := w.value(skipJSONSpace(raw, 0), 0)
	return err == nil && skipJSONSpace(raw, end) == len(raw)
}

// nameWalk reads the structure of a valid JSON value, noting the names of
// each object in its strictDecoder and checking them once the object ends.
// It steps over the values that are not objects or arrays with the
// decoder's KnownRecorder, so that the long string literals it passes are
// recorded for the readers that come after (Message.KnownStrings): raw
// was validated by parse, so each is a valid JSON string.
type nameWalk struct {
	d *strictDecoder
	b []byte
}

// value reads the value at w.b[i], depth containers deep, and returns the
// offset past it. It fails with errNotSure past rawjson.MaxPortableDepth
// levels or on a number past a double's range (the decoder refuses both),
// on a name noteName is not sure of, or on two names of one object equal
// under folding.
func (w *nameWalk) value(i, depth int) (int, error) {
	b := w.b
	if i >= len(b) || (b[i] != '{' && b[i] != '[') {
		end, err := w.d.known.SkipValue(i)
		if err == nil && (b[i] == '-' || b[i] >= '0' && b[i] <= '9') && rawjson.NumberOverflows(b[i:end]) {
			return 0, errNotSure
		}
		return end, err
	}
	if depth >= rawjson.MaxPortableDepth {
		return 0, errNotSure
	}
	if b[i] == '[' {
		return rawjson.ReadArray(b, i, func(at int) (int, error) { return w.value(at, depth+1) })
	}
	d := w.d
	first, folds := len(d.names), len(d.folds)
	end, err := rawjson.ReadObject(b, i, func(name []byte, at int) (int, error) {
		if !d.noteName(i, name) {
			return 0, errNotSure
		}
		return w.value(at, depth+1)
	})
	if err != nil {
		return 0, err
	}
	// The names of the objects inside this one were checked and dropped
	// when each ended: d.names[first:] are this object's own.
	if !distinctFolds(d, d.names[first:]) {
		return 0, errNotSure
	}
	d.names, d.folds = d.names[:first], d.folds[:folds]
	return end, nil
}

// distinctFolds reports whether no two of names, the names of one object,
// are equal under folding (a repeated name among them).
func distinctFolds(d *strictDecoder, names []foldedName) bool {
	fold := func(n foldedName) []byte { return d.folds[n.start:n.end] }
	if len(names) <= 8 {
		for i := 1; i < len(names); i++ {
			for j := range i {
				if bytes.Equal(fold(names[i]), fold(names[j])) {
					return false
				}
			}
		}
		return true
	}
	slices.SortFunc(names, func(a, b foldedName) int { return cmp.Compare(string(fold(a)), string(fold(b))) })
	for i := 1; i < len(names); i++ {
		if bytes.Equal(fold(names[i]), fold(names[i-1])) {
			return false
		}
	}
	return true
}

// skipJSONSpace returns the offset of the first byte at or after i in b
// that is not JSON white space.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && isJSONSpace(b[i]) {
		i++
	}
	return i
}
