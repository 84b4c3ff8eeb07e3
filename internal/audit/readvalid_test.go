package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// validSeeds are valid outputs whose strings end where a reader that
// only counts backslashes could go wrong: escaped quotes, runs of
// backslashes before a closing quote, escaped keys.
var validSeeds = []string{
	`"a\"b"`, `"a\\"`, `"\\\\\""`, `["\\\"x\\\\","y"]`, `{"k\"":1,"a":"\\"}`, `"\""`, `""`,
	`[{"type":"content","content":{"type":"text","text":"` + strings.Repeat(`say \"hi\" \\ `, 200) + `\\"}}]`,
	`{"stdout":"` + strings.Repeat(`C:\\dir\\`, 300) + `","stderr":"\\\\"}`,
}

// TestValidStringEnd: in valid JSON, validStringEnd finds the end
// rawjson.ValidString finds, and no end where a string is not closed.
func TestValidStringEnd(t *testing.T) {
	for _, tt := range []struct {
		text string
		end  int // 0: not closed
	}{
		{`"abc"`, 5}, {`""`, 2}, {`"a\"b"`, 6}, {`"a\\"x`, 5}, {`"a\\\"b"`, 8}, {`"\\\\"`, 6},
		{`"abc`, 0}, {`"a\"`, 0}, {`"\\\"`, 0}, {`"x" "y"`, 3},
	} {
		end, ok := validStringEnd([]byte(tt.text), 0)
		if !ok {
			end = 0
		}
		if end != tt.end {
			t.Errorf("validStringEnd(%s) = %d, want %d", tt.text, end, tt.end)
		}
		if tt.end > 0 {
			if want, _ := rawjson.ValidString([]byte(tt.text), 0); want != end {
				t.Errorf("validStringEnd(%s) = %d, rawjson.ValidString %d", tt.text, end, want)
			}
		}
	}
}

// FuzzScanValidOutput: for valid JSON, scanValidOutput, which does not
// check strings again, makes what scanOutput makes, and leaves to the tree
// path what scanOutput leaves.
func FuzzScanValidOutput(f *testing.F) {
	for _, s := range append(append(append([]string(nil), scanTaken...), scanLeft...), validSeeds...) {
		f.Add(s, 0)
		f.Add(s, 40)
	}
	f.Fuzz(func(t *testing.T, raw string, maxValue int) {
		if !json.Valid([]byte(raw)) {
			return
		}
		mv := DefaultMaxValueBytes
		if maxValue&0xfff > 0 {
			mv = maxValue & 0xfff
		}
		r := redactor{maxValue: mv, headLen: min(1024, mv)}
		want, wantOK := r.scanOutput([]byte(raw))
		got, ok := r.scanValidOutput([]byte(raw))
		if ok != wantOK || string(got) != string(want) {
			t.Fatalf("scanValidOutput(%q) = %s, %v; scanOutput = %s, %v", raw, got, ok, want, wantOK)
		}
	})
}

// FuzzReadValidToolOutput: for valid JSON, ReadValidToolOutput makes the
// records ReadToolOutput makes, in every place a record takes a tool's
// output, for both content modes and any field cap.
func FuzzReadValidToolOutput(f *testing.F) {
	for _, s := range append(append([]string(nil), scanTaken...), validSeeds...) {
		f.Add(s, false, 0, 100)
		f.Add(s, true, 3, 40)
		f.Add(s, false, 4, 4000)
	}
	f.Fuzz(func(t *testing.T, raw string, full bool, shape, maxField int) {
		if !json.Valid([]byte(raw)) {
			return
		}
		opts := fuzzOptions(32+maxField&0xffff, full)
		slow, fast := fieldLog(opts), fieldLog(opts)
		sh := readOutputShapes[uint(shape)%uint(len(readOutputShapes))]
		want := lineOrError(slow, readOutputEvent(sh, slow.ReadToolOutput([]byte(raw))))
		if got := lineOrError(fast, readOutputEvent(sh, fast.ReadValidToolOutput([]byte(raw)))); got != want {
			t.Fatalf("%s of %q, read as valid:\n%s\nread:\n%s", sh, raw, got, want)
		}
	})
}
