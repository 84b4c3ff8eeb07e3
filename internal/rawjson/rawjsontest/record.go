// Package rawjsontest makes, for tests, the record of a document's long
// string literals (rawjson.KnownStrings) that acpwire's strict check makes
// on the way, by a walk of the whole document: the reference a reader that
// steps over recorded literals is compared with.
package rawjsontest

import "github.com/acp-bridge/acp-bridge/internal/rawjson"

// Record walks the whole of doc as acpwire's strict check does
// (rawjson.ReadObject, rawjson.ReadArray, and a KnownRecorder for every
// other value) and returns what the recorder kept of its literals of min
// bytes or more, quotes included (0: rawjson.MinKnownString). doc must be
// valid JSON (rawjson.Valid), as what the check records is; the error is
// the walk's.
func Record(doc []byte, min int) (rawjson.KnownStrings, error) {
	return RecordGiven(doc, min, rawjson.Span{})
}

// RecordGiven is Record with the recorder told, as acpwire's strict check
// tells it, where doc's validation found its longest literal
// (rawjson.KnownRecorder.ResetLongest): the record must be Record's.
func RecordGiven(doc []byte, min int, longest rawjson.Span) (rawjson.KnownStrings, error) {
	rec := rawjson.KnownRecorder{Min: min}
	rec.ResetLongest(doc, longest)
	var walk func(i int) (int, error)
	walk = func(i int) (int, error) {
		for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
			i++
		}
		switch {
		case i < len(doc) && doc[i] == '{':
			return rawjson.ReadObject(doc, i, func(_ []byte, at int) (int, error) { return walk(at) })
		case i < len(doc) && doc[i] == '[':
			return rawjson.ReadArray(doc, i, walk)
		}
		return rec.SkipValue(i)
	}
	_, err := walk(0)
	return rec.Known(), err
}
