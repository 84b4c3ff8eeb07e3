package audit

import (
	"strings"
	"testing"
)

// scanTaken are outputs of the shapes agents send, which scanOutput
// reads; scanLeft are the cases it leaves to the tree path.
var (
	scanTaken = []string{
		`[{"type":"content","content":{"type":"text","text":"` + words(3000) + `"}}]`,
		`[{"type":"content","content":{"type":"text","text":"ok"}},{"type":"content","content":{"type":"text","text":"password=hunter2222"}}]`,
		`{"stdout":"` + strings.Repeat("QUJD", 600) + `","exitCode":0,"stderr":""}`,
		`{"name":"PATH","value":"/bin"}`, `{"token":"abc","password":null,"secret":""}`,
		`{"b":[1,2.50,-0,1e2,true,false,null],"a":{}}`, `"` + words(1100) + "\xff\"",
		`"` + strings.Repeat(`\ud800\u00e9\n`, 300) + `"`, ` [ { "b" : "x" , "a" : "y" } ] `, `null`,
		`"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"`, `[1e400]`, `{"n":-1E+999,"m":[` + strings.Repeat("9", 400) + `]}`,
	}
	scanLeft = []string{
		`{"type":"diff","path":"a","oldText":"` + words(2000) + `","newText":"x"}`,
		`{"name":"GITHUB_TOKEN","value":"v"}`, `{"$redacted":true}`, `{"a":1,"a":2}`, `{"$number":"1e400"}`,
		`{"k\u0065y":1}`, `{"é":1,"z":2}`, `{"a_very_long_key_name_ghp_0123456789abcdefghijklmnopqrstuvwxyzAB":1}`,
		`[1,]`, `{"a":1} x`,
	}
)

// FuzzScanOutput: where scanOutput makes a canonical form, it is the one
// the tree path (digestTree) makes, byte for byte, for any redactor cap.
func FuzzScanOutput(f *testing.F) {
	for _, s := range append(scanTaken, scanLeft...) {
		f.Add(s, 0)
		f.Add(s, 40)
	}
	f.Fuzz(func(t *testing.T, raw string, maxValue int) {
		checkScanOutput(t, raw, maxValue)
	})
}

func checkScanOutput(t *testing.T, raw string, maxValue int) {
	t.Helper()
	l := &Log{opts: Options{MaxFieldBytes: DefaultMaxFieldBytes}}
	mv := DefaultMaxValueBytes
	if maxValue&0xfff > 0 {
		mv = maxValue & 0xfff
	}
	l.red = redactor{maxValue: mv, headLen: min(1024, mv)}
	got, ok := l.red.scanOutput([]byte(raw))
	if !ok {
		return
	}
	st, diffs, err := l.digestTree([]byte(raw), MaxDiffBytes)
	if err != nil {
		t.Fatalf("scanOutput(%q) = %s; the tree path fails: %v", raw, got, err)
	}
	if diffs {
		t.Fatalf("scanOutput(%q) = %s; the tree path kept a diff", raw, got)
	}
	if string(got) != string(st.canon) {
		t.Fatalf("scanOutput(%q) (maxValue %d):\n%s\ntree path:\n%s", raw, mv, got, st.canon)
	}
	if (st.v == nil) != (string(got) == "null") || isObject(st.v) != isObject(scannedTree(got).v) {
		t.Fatalf("scanOutput(%q): null or object differs from the tree's %T", raw, st.v)
	}
}

// TestScanOutputTakes: the outputs agents send are read by scanOutput,
// not left to the tree path, and each case it leaves is left.
func TestScanOutputTakes(t *testing.T) {
	r := redactor{maxValue: DefaultMaxValueBytes, headLen: 1024}
	for _, tt := range []struct {
		outputs []string
		want    bool
	}{{scanTaken, true}, {scanLeft, false}} {
		for _, s := range tt.outputs {
			if _, ok := r.scanOutput([]byte(s)); ok != tt.want {
				t.Errorf("scanOutput(%.80q) took it: %v, want %v", s, ok, tt.want)
			}
			checkScanOutput(t, s, 0)
		}
	}
}

// lastSpaceOracle is lastSpace as strings.LastIndexAny gives it.
func lastSpaceOracle(s string, end int) int {
	if end < len(s) && strings.IndexByte(spaceBytes, s[end]) >= 0 {
		return end
	}
	if i := strings.LastIndexAny(s[:min(end, len(s))], spaceBytes); i > 0 {
		return i
	}
	return 0
}

// FuzzLastSpace: lastSpace, which passes over eight bytes at a time, finds
// what strings.LastIndexAny finds.
func FuzzLastSpace(f *testing.F) {
	for _, s := range []string{"", " ", "abc def", strings.Repeat("QUJD", 40) + "\v" + strings.Repeat("x", 17), "a\x00b\x1fc\x7f\xff \x80", "\tabcdefghijklmnop"} {
		f.Add(s, len(s))
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, end int) {
		end = max(0, end%(len(s)+2))
		if got, want := lastSpace(s, end), lastSpaceOracle(s, end); got != want {
			t.Fatalf("lastSpace(%q, %d) = %d, want %d", s, end, got, want)
		}
	})
}
