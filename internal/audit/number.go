package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// A number of JSON's grammar beyond a double's range (1e999, or a
// 400-digit integer) has no RFC 8785 form. Refusing the event would
// drop what it carries (a tool call's input with the command in it) for
// an audit.unrecorded record; writing the input as one string would lose
// its key-based redaction. So such a number is written as a marker
// object holding its text, {"$number": "1e999"}, and the rest of the
// event is recorded and redacted as usual. A caller's own "$number" key
// is escaped to "$$number" (escapeMarkerKey), so it never passes for the
// marker. So is a number the canonical form would change: one whose
// double's shortest text names another value than the text sent (-0, whose
// canonical form is 0; 1e-400, which underflows to 0; 9007199254740993,
// which rounds to ...992; 0.10000000000000001). Another spelling of the
// same value (1.0, 1E2, 1 followed by 300 zeros) is written canonically.

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
		d := fastDecoder{jsonCursor: jsonCursor{data: []byte(v)}, marks: true}
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

// keptExactly reports whether f, the double the JSON number text reads
// as, has a canonical form naming the same decimal value as text (sign
// included, so -0 is not kept). Integers of up to 15 digits are kept by
// any double without a look.
func keptExactly(text []byte, f float64) bool {
	neg := text[0] == '-'
	digits := text
	if neg {
		digits = text[1:]
	}
	if len(digits) <= 15 && (len(digits) == 1 || digits[0] != '0') && plainDigits(digits) {
		return !neg || digits[0] != '0'
	}
	var buf [32]byte
	short := strconv.AppendFloat(buf[:0], math.Abs(f), 'e', -1, 64)
	if f == 0 {
		short = short[:0] // no significant digit
	}
	wantDigits, wantExp := significand(digits)
	gotDigits, gotExp := significand(short)
	if len(wantDigits) == 0 || len(gotDigits) == 0 {
		return len(wantDigits) == len(gotDigits) && !neg
	}
	return neg == (f < 0) && wantExp == gotExp && string(wantDigits) == string(gotDigits)
}

// plainDigits reports whether b is all decimal digits.
func plainDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// significand returns the significant digits of num, an unsigned number
// of JSON's grammar or strconv's 'e' form, without leading or trailing
// zeros, and the exponent e such that num is 0.DIGITS times ten to the e;
// no digits for zero. An exponent too long to matter saturates.
func significand(num []byte) (digits []byte, exp int) {
	mant, expText := num, []byte(nil)
	if i := bytes.IndexAny(num, "eE"); i >= 0 {
		mant, expText = num[:i], num[i+1:]
	}
	point := len(mant)
	for i, c := range mant {
		if c == '.' {
			point = i
			break
		}
	}
	all := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c != '.' {
			all = append(all, c)
		}
	}
	lead := 0
	for lead < len(all) && all[lead] == '0' {
		lead++
	}
	all = bytes.TrimRight(all[lead:], "0")
	if len(all) == 0 {
		return nil, 0
	}
	e, neg := 0, false
	if len(expText) > 0 && (expText[0] == '+' || expText[0] == '-') {
		neg = expText[0] == '-'
		expText = expText[1:]
	}
	for _, c := range expText {
		if e < 1<<20 {
			e = 10*e + int(c-'0')
		}
	}
	if neg {
		e = -e
	}
	return all, point - lead + e
}
