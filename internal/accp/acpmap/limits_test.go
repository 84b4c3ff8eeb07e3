package acpmap

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// deepMessage returns an _x/deep notification whose params nest n objects
// deep; its frame's values nest n levels.
func deepMessage(n int) []byte {
	return []byte(`{"jsonrpc":"2.0","method":"_x/deep","params":` + strings.Repeat(`{"a":`, n) + `1` + strings.Repeat(`}`, n) + `}`)
}

func TestDeepMessageDepth(t *testing.T) {
	fr, err := NewEncoder("d", Options{}).Encode(deepMessage(10), AgentToClient, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Limits.Parse(fr, NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	d := 0
	for _, p := range f.Params {
		d = max(d, accp.MeasureValue(p.Val).Depth)
	}
	if d != 10 {
		t.Fatalf("frame nests %d levels, want 10: %s", d, fr)
	}
}

// TestEncodeWithinLimits checks that the encoders write only frames the
// decoder accepts: a message too deep to go into a run leaves as its own
// frame, and one too deep for any frame is an error (E1001) that loses no
// other message.
func TestEncodeWithinLimits(t *testing.T) {
	small := []byte(`{"jsonrpc":"2.0","method":"_x/note","params":{"note":"hello"}}`)
	max := Limits.MaxDepth
	tests := []struct {
		name    string
		depths  []int // nesting of each message; 0 is small
		runs    bool
		wantErr []bool // per message
		frames  int
	}{
		{"at the limit", []int{max}, false, []bool{false}, 1},
		{"over the limit", []int{max + 1}, false, []bool{true}, 0},
		{"far over", []int{max + 6}, false, []bool{true}, 0},
		{"fits a run", []int{0, max - 2}, true, []bool{false, false}, 1},
		{"one level too deep for a run", []int{0, max - 1, 0}, true, []bool{false, false, false}, 3},
		{"too deep for a run, at the limit", []int{0, max, 0}, true, []bool{false, false, false}, 3},
		{"too deep for any frame in a run", []int{0, max + 6, 0}, true, []bool{false, true, false}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lines []Line
			var frames []string
			enc := NewEncoder("d", Options{})
			r := enc.Runs(RunOptions{MaxBodyTokens: -1})
			for i, d := range tt.depths {
				msg := small
				if d > 0 {
					msg = deepMessage(d)
				}
				var fs []string
				var err error
				if tt.runs {
					fs, err = r.Add(msg, AgentToClient, time.Unix(1714000000, 0))
				} else {
					var fr string
					fr, err = enc.Encode(msg, AgentToClient, time.Unix(1714000000, 0))
					if err == nil {
						fs = []string{fr}
					}
				}
				if (err != nil) != tt.wantErr[i] {
					t.Fatalf("message %d: err = %v, want error %v", i+1, err, tt.wantErr[i])
				}
				if err != nil {
					if accp.CodeOf(err) != accp.CodeParse {
						t.Errorf("message %d: code %s, want E1001", i+1, accp.CodeOf(err))
					}
					continue
				}
				lines = append(lines, Line{Msg: msg})
				frames = append(frames, fs...)
			}
			fs, err := r.Flush()
			if err != nil {
				t.Fatal(err)
			}
			frames = append(frames, fs...)
			if len(frames) != tt.frames {
				t.Errorf("%d frames, want %d", len(frames), tt.frames)
			}
			checkRuns(t, lines, frames)
		})
	}
}

// TestUnboundedRunWithinLimits checks that runs without a token bound end
// before the frame would be longer, or hold more values, than Limits
// allow.
func TestUnboundedRunWithinLimits(t *testing.T) {
	saved := Limits
	t.Cleanup(func() { Limits = saved })
	msg := func(i int) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"chunk ` + strings.Repeat("x", i%50) + `"}}}}`)
	}
	tests := []struct {
		name string
		lim  accp.Limits
	}{
		{"bytes", accp.Limits{MaxDepth: 64, MaxFrameBytes: 1000, MaxElements: 1 << 20}},
		{"values", accp.Limits{MaxDepth: 64, MaxFrameBytes: 1 << 20, MaxElements: 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			Limits = tt.lim
			var lines []Line
			for i := range 60 {
				lines = append(lines, Line{Msg: msg(i), Dir: AgentToClient})
			}
			frames := encodeRuns(t, lines, Options{}, RunOptions{MaxBodyTokens: -1})
			if len(frames) < 2 || len(frames) >= len(lines) {
				t.Errorf("%d frames for %d messages", len(frames), len(lines))
			}
			checkRuns(t, lines, frames)
		})
	}
}

// TestEncodeValuesWithinLimits checks the value limit on the encoder: a
// message whose frame holds more values than Limits allow is E1001 (the
// sync:json frame is no way out: it writes the rows as a table too).
func TestEncodeValuesWithinLimits(t *testing.T) {
	saved := Limits
	t.Cleanup(func() { Limits = saved })
	msg := []byte(`{"jsonrpc":"2.0","method":"_x/note","params":{"rows":[{"a":1,"b":2},{"a":3,"b":4}]}}`)
	// m, p, rows, the cols pair, its array and 2 names, 2 rows of 3 values,
	// and mid, seq and ts.
	const values = 16
	for _, max := range []int{values, values - 1} {
		Limits.MaxElements = max
		fr, err := NewEncoder("l", Options{}).Encode(msg, AgentToClient, time.Unix(1714000000, 0))
		if max < values {
			if accp.CodeOf(err) != accp.CodeParse {
				t.Errorf("limit %d: got %s, %v; want E1001", max, fr, err)
			}
			continue
		}
		if err != nil || !strings.Contains(fr, "cols:") {
			t.Fatalf("limit %d: got %s, %v; want the rows as a table", max, fr, err)
		}
		checkRuns(t, []Line{{Msg: msg}}, []string{fr})
	}
}

// TestNestedTables checks that decoding tables takes time linear in the
// frame: a table with a malformed row or head falls back to a plain array,
// and its values must not be converted once for the table and again for
// the array (24 levels took 17 s that way).
func TestNestedTables(t *testing.T) {
	const levels = 24
	tests := []struct {
		name  string
		level string // one level around the value v
		want  string // the decoded params.p for two levels
	}{
		{"well formed", "[cols:[a],[v]]", `[{"a":[{"a":1}]}]`},
		{"malformed row", "[cols:[a],[v],0]", `[{"cols":["a"]},[[{"cols":["a"]},[1],0]],0]`},
		{"malformed head", "[cols:[0],[v]]", `[{"cols":[0]},[[{"cols":[0]},[1]]]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nest := func(n int) string {
				v := "1"
				for range n {
					v = strings.ReplaceAll(tt.level, "v", v)
				}
				return v
			}
			var err error
			d := cputime.Of(func() { _, err = NewDecoder("t", Options{}).DecodeValue(noteFrame("{p:"+nest(levels)+"}", 1)) })
			if d > 500*time.Millisecond {
				t.Errorf("%d levels took %v of CPU to decode", levels, d)
			}
			if err != nil {
				t.Fatal(err)
			}
			x, err := NewDecoder("t", Options{}).DecodeValue(noteFrame("{p:"+nest(2)+"}", 1))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := getPath(x.(map[string]any), p("params", "p"))
			if b, _ := MarshalJSON(got); string(b) != tt.want {
				t.Errorf("2 levels decode to %s, want %s", b, tt.want)
			}
		})
	}
}

// TestCodecKeepsNoFrames checks that an encoder and a decoder do not keep
// the frames they pass: the live heap after a GC does not grow with the
// session (200 MB of frames once left 219 MB live). The numbering is
// lowered so that it holds none of the texts either.
func TestCodecKeepsNoFrames(t *testing.T) {
	saved := refMaxBytes
	t.Cleanup(func() { refMaxBytes = saved })
	refMaxBytes = 64 << 10
	const msgs, size = 40, 100 << 10
	enc, dec := NewEncoder("h", Options{}), NewDecoder("h", Options{})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range msgs {
		m := fmt.Sprintf(`{"jsonrpc":"2.0","method":"_x/note","params":{"note":"%s%d"}}`, strings.Repeat("x", size), i)
		fr, err := enc.Encode([]byte(m), AgentToClient, time.Unix(1714000000, 0))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dec.Decode(strings.Clone(fr)); err != nil { // as if read
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := max(int64(after.HeapAlloc)-int64(before.HeapAlloc), 0)
	t.Logf("live heap grew by %d KiB after %d frames of %d KiB", grown>>10, msgs, size>>10)
	if grown > 1<<20 {
		t.Errorf("live heap grew by %d KiB after %d frames of %d KiB", grown>>10, msgs, size>>10)
	}
	runtime.KeepAlive(enc)
	runtime.KeepAlive(dec)
}
