package rawjson

import "slices"

// KnownStrings records where the long string literals of one document
// are, as a reading of the whole document found them, so that a later
// reader of the same bytes steps over such a literal without looking at
// its bytes again: a tool's output, tens of KiB in one string, is
// otherwise walked once by every reader of the message. A reader asks End
// with its own slice of the document; a slice that is not one of the
// document (other bytes, a copy) is never answered, so the record holds
// only for the very bytes it was made from. Those bytes must not change
// while it is used.
//
// A record is made by a reading of bytes already validated (as ReadObject
// requires): then each literal it holds is a valid JSON string, and its
// end is where SkipValue and ValidString find it. The zero value and a nil
// pointer record nothing. A holder of the document keeps the record as StringSpans,
// which do not hold the document.
type KnownStrings struct {
	doc []byte
	// spans are the literals, by the offset of their opening quote in doc.
	spans []span
}

// span is a string literal from its opening quote to just past its
// closing one.
type span struct{ start, end int }

// MinKnownString is the shortest literal (quotes included) a
// KnownStrings records: a shorter one costs less to walk than to look up.
const MinKnownString = 256

// KnownRecorder collects the long string literals of a document as a
// reading steps over them (SkipValue), for a KnownStrings. It keeps its
// buffer between documents. The zero value is ready to use.
type KnownRecorder struct {
	// Min is the shortest literal recorded, quotes included; optional: if
	// zero, MinKnownString. Tests record short literals with it.
	Min int

	doc   []byte
	spans []span
	// given is a literal of doc that SkipValue steps over without
	// reading it (see ResetLongest).
	given Span
}

// Reset starts a record of doc, dropping what was recorded before.
func (k *KnownRecorder) Reset(doc []byte) {
	k.doc, k.spans, k.given = doc, k.spans[:0], Span{}
}

// ResetLongest is Reset for a doc whose validation found its longest
// string literal at longest (Facts.Longest of ValidNamesFacts on these
// very bytes): SkipValue steps over that literal by its end, without
// reading it, and records it as it records any other. A tool's output,
// tens of KiB in one string, is then read by the validation alone. The
// zero Span gives nothing.
func (k *KnownRecorder) ResetLongest(doc []byte, longest Span) {
	k.Reset(doc)
	if 0 <= longest.Start && longest.Start < longest.End && longest.End <= len(doc) {
		k.given = longest
	}
}

// SkipValue is the package's SkipValue on the document Reset named,
// recording the value when it is a string literal of Min bytes or more;
// the literal ResetLongest gave it is stepped over by its end. Like
// SkipValue it finds the value's end, not whether it is valid: the
// document must have been validated.
func (k *KnownRecorder) SkipValue(i int) (int, error) {
	b := k.doc
	i = skipSpace(b, i)
	var end int
	var err error
	if i == k.given.Start && k.given.End > i {
		end = k.given.End
	} else {
		end, err = skipValue(b, i, 0)
	}
	least := k.Min
	if least == 0 {
		least = MinKnownString
	}
	if err == nil && b[i] == '"' && end-i >= least {
		k.spans = append(k.spans, span{i, end})
	}
	return end, err
}

// Spans returns what was recorded since Reset, without the document (the
// zero StringSpans when nothing was), and forgets the document. Only a
// reading that went over the whole document and found it as its caller
// requires should keep the result.
func (k *KnownRecorder) Spans() StringSpans {
	var out StringSpans
	switch len(k.spans) {
	case 0:
	case 1:
		// The usual case, a tool's output: one allocation.
		set := &spanSet{one: [1]span{k.spans[0]}}
		set.spans = set.one[:]
		out.set = set
	default:
		set := &spanSet{spans: slices.Clone(k.spans)}
		// A reading steps over literals in document order; sort in case
		// a caller did not.
		slices.SortFunc(set.spans, func(a, b span) int { return a.start - b.start })
		out.set = set
	}
	k.doc = nil
	return out
}

// Known is Spans of the document Reset named, as its KnownStrings.
func (k *KnownRecorder) Known() KnownStrings {
	doc := k.doc
	return k.Spans().In(doc)
}

// StringSpans is where the long string literals of a document are, as a
// KnownRecorder found them, without the document: what a holder of the
// document keeps, so that a copy of the holder that drops the document
// does not keep it alive through the record. The zero value records
// nothing.
type StringSpans struct {
	// set is a pointer, so that a holder of a document (a message, made
	// for every line) grows by one word for its record.
	set *spanSet
}

// spanSet holds the spans of a StringSpans, with room for one.
type spanSet struct {
	spans []span
	one   [1]span
}

// In returns the record of doc, which must be the very bytes (the same
// memory, unchanged) s was recorded from: a record of other bytes would
// tell wrong ends.
func (s StringSpans) In(doc []byte) KnownStrings {
	if s.set == nil {
		return KnownStrings{}
	}
	return KnownStrings{doc: doc, spans: s.set.spans}
}

// Len returns how many literals k records.
func (k *KnownStrings) Len() int {
	if k == nil {
		return 0
	}
	return len(k.spans)
}

// End returns the offset in b just past the string literal that starts at
// b[i], when b is a slice of the recorded document (sharing its memory)
// and that literal is one k records; otherwise ok is false, and the caller
// reads the literal itself.
func (k *KnownStrings) End(b []byte, i int) (end int, ok bool) {
	if k == nil || len(k.spans) == 0 || i < 0 || i >= len(b) || b[i] != '"' {
		return 0, false
	}
	off := cap(k.doc) - cap(b)
	if off < 0 || off+len(b) > len(k.doc) || &k.doc[off] != &b[0] {
		return 0, false
	}
	at := off + i
	n, found := slices.BinarySearchFunc(k.spans, at, func(s span, at int) int { return s.start - at })
	if !found || k.spans[n].end-off > len(b) {
		return 0, false
	}
	return k.spans[n].end - off, true
}

// SkipValue is the package's SkipValue, stepping over a string literal k
// records without reading it.
func (k *KnownStrings) SkipValue(b []byte, i int) (int, error) {
	i = skipSpace(b, i)
	if k != nil && len(k.spans) > 0 {
		if end, ok := k.End(b, i); ok {
			return end, nil
		}
	}
	return skipValue(b, i, 0)
}

// ValidString is the package's ValidString, answering for a literal k
// records without reading it: such a literal was found valid.
func (k *KnownStrings) ValidString(b []byte, i int) (end int, ok bool) {
	if end, ok := k.End(b, i); ok {
		return end, true
	}
	return ValidString(b, i)
}
