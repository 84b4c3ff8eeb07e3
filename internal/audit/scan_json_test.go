package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzScanJSON: raw JSON given as input (a tool call's rawInput) is
// written as the tree path writes it, whether scanJSON takes it or leaves
// it, for any string cap and field cap.
func FuzzScanJSON(f *testing.F) {
	for _, s := range append(append([]string{`{"path":"/w/src/file7.go"}`, `{"command":"curl -H 'Authorization: Bearer abcdefgh12345678' https://x"}`,
		`"password=hunter2222"`, `[1,"a",{"b":null}]`, `null`, `{"content":"` + strings.Repeat("QUJD", 3000) + `"}`}, scanTaken...), scanLeft...) {
		f.Add(s, 0)
		f.Add(s, 0x2828)
	}
	f.Fuzz(func(t *testing.T, raw string, caps int) {
		caps &= 0xffff
		opts := Options{MaxFieldBytes: DefaultMaxFieldBytes, MaxValueBytes: DefaultMaxValueBytes}
		if caps != 0 {
			opts.MaxFieldBytes, opts.MaxValueBytes = 64+(caps&0xff)*64, 16+caps>>8
		}
		l := fieldLog(opts)
		if canon, ok := l.red.scanJSON([]byte(raw)); ok {
			tree, err := decodeTree([]byte(raw))
			if err != nil {
				t.Fatalf("scanJSON(%q) = %s; the tree path fails: %v", raw, canon, err)
			}
			want, err := appendCanonical(nil, l.red.tree(tree))
			if err != nil || string(want) != string(canon) {
				t.Fatalf("scanJSON(%q):\n%s\ntree path:\n%s (%v)", raw, canon, want, err)
			}
		}
		for _, wrap := range []bool{true, false} {
			got, _, err := l.field(nil, "input", json.RawMessage(raw), wrap)
			want, _, werr := l.fieldTree(nil, "input", json.RawMessage(raw), wrap)
			if (err == nil) != (werr == nil) || string(got) != string(want) {
				t.Fatalf("field(%q, wrap %v) = %s, %v; tree path %s, %v", raw, wrap, got, err, want, werr)
			}
		}
	})
}
