package acpmap

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// TestJSONSizeCounts checks frameJSONSize against the JSON every message of
// the corpus and the recorded transcripts decodes to: at least its length,
// at most jsonFixedBytes, the codecs' wrappers and a few
// bytes a param more (the braces of "u" and "x", merged into the message).
func TestJSONSizeCounts(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/transcripts/*.jsonl")
	files = append(files, "testdata/corpus.jsonl")
	n := 0
	for _, file := range files {
		fh, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		enc, dec := NewEncoder("j", Options{}), NewDecoder("j", Options{})
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			l, err := ReadLine(sc.Bytes())
			if err != nil {
				continue
			}
			fr, err := enc.Encode([]byte(l.Msg), l.Dir, time.Unix(1714000000, 0))
			if err != nil {
				t.Fatal(err)
			}
			out, err := dec.Decode(fr)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Limits.Parse(fr, NewRegistry())
			if err != nil {
				t.Fatal(err)
			}
			got := frameJSONSize(f)
			strs := strings.Count(string(out), `"text"`) + strings.Count(string(out), `"path"`)
			if got < len(out) || got > len(out)+jsonFixedBytes+strs*codecWrapBytes+8*len(f.Params) {
				t.Errorf("%s: counted %d bytes for %d bytes of JSON", file, got, len(out))
			}
			n++
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if n < 50 {
		t.Fatalf("only %d messages checked", n)
	}
}

// TestMaxJSONBytes checks the bound on the JSON one frame decodes to: a
// small frame of a table with long column names is rejected before its
// values are parsed (the decoder allocated 31.7 MB for the 440 KB frame of
// "far over" when it parsed first), the encoder refuses a message over the
// bound, and a run ends before a message that would take it over.
func TestMaxJSONBytes(t *testing.T) {
	const max = 100_000
	opt := Options{MaxJSONBytes: max}
	cols := make([]string, 10)
	for i := range cols {
		cols[i] = fmt.Sprintf("k%d%s", i, strings.Repeat("a", 200))
	}
	table := func(rows int) string {
		row := "[" + strings.TrimSuffix(strings.Repeat("0,", len(cols)), ",") + "]"
		return "[cols:[" + strings.Join(cols, ",") + "]," + strings.TrimSuffix(strings.Repeat(row+",", rows), ",") + "]"
	}
	tests := []struct {
		name string
		rows int
		want accp.Code
	}{
		{"within", 40, ""},                    // 40 rows of 10 names: about 80 KB
		{"over", 60, accp.CodeBudgetExceeded}, // about 120 KB from a 3 KB frame
		{"far over", 20_000, accp.CodeBudgetExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dec, fr := NewDecoder("j", opt), noteFrame("{p:"+table(tt.rows)+"}", 1)
			var x any
			var err error
			allocated := allocatedBy(func() { x, err = dec.DecodeValue(fr) })
			if accp.CodeOf(err) != tt.want {
				t.Fatalf("got %v, want code %q", err, tt.want)
			}
			if tt.want != "" && allocated > 64<<10 {
				t.Errorf("refusing a frame of %d KB allocated %d KB", len(fr)>>10, allocated>>10)
			}
			if tt.want == "" {
				b, _ := MarshalJSON(x)
				if len(b) > max || len(b) < max/2 {
					t.Errorf("decoded to %d bytes of JSON", len(b))
				}
			}
		})
	}
	t.Run("encoder", func(t *testing.T) {
		row := `{"` + cols[0] + `":0}` // 208 bytes
		msg := func(rows int) []byte {
			return []byte(`{"jsonrpc":"2.0","method":"_x/note","params":{"p":[` + strings.TrimSuffix(strings.Repeat(row+",", rows), ",") + `]}}`)
		}
		enc := NewEncoder("j", opt)
		if _, err := enc.Encode(msg(600), AgentToClient, time.Time{}); accp.CodeOf(err) != accp.CodeBudgetExceeded {
			t.Errorf("a message of 130 KB: got %v, want E2003", err)
		}
		// Three messages of about 45 KB: two fit in a run, three do not.
		runs := NewEncoder("j", opt).Runs(RunOptions{MaxBodyTokens: -1})
		dec := NewDecoder("j", opt)
		frames := runFrames(t, runs, msg(200), msg(200), msg(200))
		if len(frames) != 2 {
			t.Errorf("got %d frames, want a run of 2 and one frame", len(frames))
		}
		for _, fr := range frames {
			if _, err := dec.DecodeValues(fr); err != nil {
				t.Errorf("decoding a frame the encoder wrote: %v", err)
			}
		}
	})
}

// allocatedBy returns the bytes of heap f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// FuzzJSONStringSize checks jsonStringSize against the JSON MarshalJSON
// writes for the string.
func FuzzJSONStringSize(f *testing.F) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "\n\r\t\b\f\x00\x1f\x7f",
		"<html> & more", "caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff\xfe utf-8", "\xe2\x80",
		"a U+FFFD written out: \ufffd, then a bad byte: \xef\xbf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := MarshalJSON(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := jsonStringSize(s); got != len(b) {
			t.Errorf("jsonStringSize(%q) = %d, MarshalJSON writes %d bytes: %s", s, got, len(b), b)
		}
	})
}
