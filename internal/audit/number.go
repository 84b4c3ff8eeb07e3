package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// A number of JSON's grammar beyond a double's range (1e999, or a
// 400-digit integer) has no RFC 8785 form. Refusing the event would
// drop what it carries (a tool call's input with the command in it) for
// an audit.unrecorded record; writing the input as one string would lose
// its key-based redaction. So such a number is written as a marker
// object holding its text, {"$number": "1e999"}, and the rest of the
// event is recorded and redacted as usual. A caller's own "$number" key
// is escaped to "$$number" (escapeMarkerKey), so it never passes for the
// marker. A number that rounds to a double (-0, 1e-400, which underflows
// to 0, a long digit string within range) keeps its canonical form, as
// it always has.

// numberMarker is, in a decoded tree, a number no double holds: its JSON
// text as it came.
type numberMarker string

// numberMarkerKey is the member name of the marker object.
const numberMarkerKey = "$number"

// MarshalJSON writes the marker object, so that encoding/json gives the
// tree the form appendCanonical gives it.
func (n numberMarker) MarshalJSON() ([]byte, error) {
	return appendNumberMarker(nil, string(n)), nil
}

// appendNumberMarker appends the marker object of the number whose text
// is text, uncapped.
func appendNumberMarker(dst []byte, text string) []byte {
	dst = append(dst, `{"`+numberMarkerKey+`":`...)
	dst = appendCanonicalString(dst, text)
	return append(dst, '}')
}

// numberMark returns the marker of the number whose text is text, the
// text redacted and capped as any string is (redactor.str): a
// megabyte of digits is kept as a head and a digest.
func (r *redactor) numberMark(text string) map[string]any {
	if out, changed := r.str(text); changed {
		return map[string]any{numberMarkerKey: out}
	}
	return map[string]any{numberMarkerKey: text}
}

// appendScannedNumber appends what redactor.tree writes for the
// numberMarker whose JSON text is lit (digits, sign, '.', 'e': its own
// string form once quoted).
func (r *redactor) appendScannedNumber(dst, lit []byte) ([]byte, bool) {
	dst = append(dst, `{"`+numberMarkerKey+`":`...)
	quoted := make([]byte, 0, len(lit)+2)
	quoted = append(append(append(quoted, '"'), lit...), '"')
	dst, ok := r.appendOutputString(dst, quoted, false)
	return append(dst, '}'), ok
}

// decodeSlow decodes data as encoding/json does, numbers out of a
// double's range as numberMarkers: the path for what fastDecoder does
// not take (nesting deeper than maxDepth).
func decodeSlow(data []byte) (any, error) {
	if !json.Valid(data) {
		// json.Unmarshal's error says where.
		var v any
		return nil, json.Unmarshal(data, &v)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("decoding JSON: data after the value")
	}
	return numbersOf(v), nil
}

// numbersOf replaces each json.Number in v by the float64 json.Unmarshal
// gives, or by a numberMarker where it gives none.
func numbersOf(v any) any {
	switch v := v.(type) {
	case json.Number:
		d := fastDecoder{data: []byte(v), marks: true}
		if n, ok := d.number(); ok && d.i == len(d.data) {
			return n
		}
		return numberMarker(v)
	case []any:
		for i, e := range v {
			v[i] = numbersOf(e)
		}
	case map[string]any:
		for k, e := range v {
			v[k] = numbersOf(e)
		}
	}
	return v
}
