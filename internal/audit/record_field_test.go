package audit

import (
	"encoding/json"
	"testing"
)

// FuzzSharedOutputField: a tool's output read already (a *sharedTree with
// its canonical form) is put in a record by field as fieldTree puts it:
// wrapped as {"value": ...} unless an object, capped alike.
func FuzzSharedOutputField(f *testing.F) {
	for _, s := range []string{`[{"type":"content","content":{"type":"text","text":"ok"}}]`, `{"stdout":"x","token":"abc"}`,
		`"password=hunter22 and more"`, `[1,2.50,null]`, `null`, `{}`, `[]`, `3`, `{"$digest":true}`} {
		f.Add(s, 0, false)
		f.Add(s, 20, true)
	}
	f.Fuzz(func(t *testing.T, raw string, maxField int, full bool) {
		if !json.Valid([]byte(raw)) {
			return
		}
		opts := fuzzOptions(16+maxField&0xfff, full)
		l := fieldLog(opts)
		st, err := l.readOutput(ToolOutput(raw), false)
		if err != nil {
			return
		}
		for _, wrap := range []bool{true, false} {
			got, _, err := l.field([]byte("x"), "output", st, wrap)
			want, _, werr := l.fieldTree([]byte("x"), "output", st, wrap)
			if (err == nil) != (werr == nil) || string(got) != string(want) {
				t.Fatalf("output %s, wrap %v: field %s (%v), fieldTree %s (%v)", raw, wrap, got, err, want, werr)
			}
		}
	})
}
