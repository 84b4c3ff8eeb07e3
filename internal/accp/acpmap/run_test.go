package acpmap

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// readLines returns the messages of a JSONL file (bare or transcript lines).
func readLines(t testing.TB, path string) []Line {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []Line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 512<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		l, err := ReadLine(sc.Bytes())
		if err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		l.Msg = append([]byte(nil), l.Msg...)
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// encodeRuns writes lines as run frames.
func encodeRuns(t testing.TB, lines []Line, eopt Options, opt RunOptions) []string {
	t.Helper()
	r := NewEncoder("rt", eopt).Runs(opt)
	var frames []string
	for i, l := range lines {
		fs, err := r.Add(l.Msg, l.Dir, l.TS)
		if err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
		frames = append(frames, fs...)
	}
	fs, err := r.Flush()
	if err != nil {
		t.Fatal(err)
	}
	return append(frames, fs...)
}

// checkRuns decodes frames in a fresh decoder and compares the messages
// with lines, in order.
func checkRuns(t testing.TB, lines []Line, frames []string) {
	t.Helper()
	dec := NewDecoder("rt", Options{})
	var got []any
	for i, fr := range frames {
		if strings.ContainsAny(fr, " \t\n\r") {
			t.Errorf("frame %d holds whitespace: %s", i+1, fr)
		}
		xs, err := dec.DecodeValues(fr)
		if err != nil {
			t.Fatalf("frame %d: %v\n%s", i+1, err, fr)
		}
		got = append(got, xs...)
	}
	if len(got) != len(lines) {
		t.Fatalf("%d frames gave %d messages, want %d", len(frames), len(got), len(lines))
	}
	for i, l := range lines {
		want, _ := accp.DecodeJSON(l.Msg)
		if !accp.JSONEqual(got[i], want) {
			g, _ := MarshalJSON(got[i])
			t.Errorf("message %d differs\nwant %s\ngot  %s", i+1, l.Msg, g)
		}
	}
}

func TestRunsRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/transcripts/*.jsonl")
	files = append(files, "testdata/corpus.jsonl")
	for _, f := range files {
		lines := readLines(t, f)
		for _, tc := range []struct {
			name string
			eopt Options
			opt  RunOptions
		}{
			{"default", Options{}, RunOptions{}},
			{"unbounded", Options{}, RunOptions{MaxBodyTokens: -1}},
			{"tiny", Options{}, RunOptions{MaxBodyTokens: 30}},
			{"refs", Options{Refs: true}, RunOptions{}},
		} {
			t.Run(filepath.Base(f)+"/"+tc.name, func(t *testing.T) {
				frames := encodeRuns(t, lines, tc.eopt, tc.opt)
				if len(frames) >= len(lines) && tc.opt.MaxBodyTokens != 30 {
					t.Errorf("%d frames for %d messages: no run formed", len(frames), len(lines))
				}
				checkRuns(t, lines, frames)
				if tc.opt.MaxBodyTokens != 0 {
					return
				}
				for _, fr := range frames {
					pf, err := Limits.Parse(fr, NewRegistry())
					if err != nil {
						t.Fatal(err)
					}
					if isRun(pf) && accp.MeasureFrame(fr).Exceeds() {
						t.Errorf("run frame over the 3.4 hard limits (%+v): %s", accp.MeasureFrame(fr), fr)
					}
				}
			})
		}
	}
}

// TestRunBoundaries checks where runs end: at a change of sender, before
// the bound, and at Flush; a run of one message is its ordinary frame.
func TestRunBoundaries(t *testing.T) {
	upd := func(text string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}}}}`
	}
	prompt := `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`
	end := `{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn"}}`
	type in struct {
		msg string
		dir Direction
	}
	tests := []struct {
		name  string
		max   int
		msgs  []in
		heads []string // the frames' header and op, in order
		sizes []int    // messages per frame
	}{
		{"one sender", 0, []in{{upd("a"), AgentToClient}, {upd("b"), AgentToClient}, {end, AgentToClient}},
			[]string{"@agent>sync:run"}, []int{3}},
		{"sender changes", 0, []in{{prompt, ClientToAgent}, {upd("a"), AgentToClient}, {upd("b"), AgentToClient}, {end, AgentToClient}},
			[]string{"@client>req:prompt", "@agent>sync:run"}, []int{1, 3}},
		{"bound", 24, []in{{upd("one"), AgentToClient}, {upd("two"), AgentToClient}, {upd("three"), AgentToClient}},
			[]string{"@agent>sync:run", "@agent>stream:msg"}, []int{2, 1}},
		{"over the bound alone", 3, []in{{upd("a"), AgentToClient}, {upd("b"), AgentToClient}},
			[]string{"@agent>stream:msg", "@agent>stream:msg"}, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewEncoder("b", Options{}).Runs(RunOptions{MaxBodyTokens: tt.max})
			var frames []string
			var lines []Line
			for _, m := range tt.msgs {
				fs, err := r.Add([]byte(m.msg), m.dir, time.Unix(1714000000, 0))
				if err != nil {
					t.Fatal(err)
				}
				frames = append(frames, fs...)
				lines = append(lines, Line{Msg: []byte(m.msg), Dir: m.dir})
			}
			fs, err := r.Flush()
			if err != nil {
				t.Fatal(err)
			}
			frames = append(frames, fs...)
			if len(frames) != len(tt.heads) {
				t.Fatalf("got %d frames, want %d:\n%s", len(frames), len(tt.heads), strings.Join(frames, "\n"))
			}
			for i, fr := range frames {
				if !strings.HasPrefix(fr, tt.heads[i]+"{") {
					t.Errorf("frame %d: got %s, want %s{...", i+1, fr, tt.heads[i])
				}
				pf, err := Limits.Parse(fr, NewRegistry())
				if err != nil {
					t.Fatalf("frame %d does not parse: %v", i+1, err)
				}
				n := 1
				if isRun(pf) {
					n = len(pf.Params[0].Val.List)
				}
				if n != tt.sizes[i] {
					t.Errorf("frame %d holds %d messages, want %d", i+1, n, tt.sizes[i])
				}
			}
			checkRuns(t, lines, frames)
		})
	}
}

func TestRunFrameErrors(t *testing.T) {
	tests := []struct{ name, frame string }{
		{"empty run", `@agent>sync:run{m:[]}[mid:111111111111,seq:1,ts:1714000000]`},
		{"not a pair", `@agent>sync:run{m:[x,y]}[mid:111111111111,seq:1,ts:1714000000]`},
		{"unknown kind", `@agent>sync:run{m:[req_nothing:{},req_nothing:{}]}[mid:111111111111,seq:1,ts:1714000000]`},
		{"nested run", `@agent>sync:run{m:[sync_run:{m:[]},sync_run:{m:[]}]}[mid:111111111111,seq:1,ts:1714000000]`},
		{"bad cid", `@agent>sync:run{m:[done_write:{cid:[1]},done_write:{cid:2}]}[mid:111111111111,seq:1,ts:1714000000]`},
		{"bad sid", `@agent>sync:run{m:[stream_msg:{c:a,sid:1},stream_msg:{c:b}]}[mid:111111111111,seq:1,ts:1714000000]`},
		{"extra param", `@agent>sync:run{m:[stream_msg:{c:a}]|n:1}[mid:111111111111,seq:1,ts:1714000000]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			xs, err := NewDecoder("e", Options{}).DecodeValues(tt.frame)
			if accp.CodeOf(err) != accp.CodeInvalidType {
				t.Errorf("got %v, %v; want E1004", xs, err)
			}
		})
	}
	t.Run("DecodeValue of a run", func(t *testing.T) {
		fr := `@agent>sync:run{m:[stream_msg:{c:a,sid:s},stream_msg:{c:b}]}[mid:111111111111,seq:1,ts:1714000000]`
		dec := NewDecoder("e", Options{})
		if _, err := dec.DecodeValue(fr); accp.CodeOf(err) != accp.CodeInvalidType {
			t.Errorf("got %v, want E1004", err)
		}
		// Rejected before it took its place in the sequence: the same
		// decoder still takes it whole.
		xs, err := dec.DecodeValues(fr)
		if err != nil || len(xs) != 2 {
			t.Fatalf("got %v, %v", xs, err)
		}
	})
}

// TestRunKeysFree checks that no mapping row uses the entry keys a run
// reserves for the envelope's cid and sid.
func TestRunKeysFree(t *testing.T) {
	for _, k := range kinds {
		for _, f := range k.fields {
			if f.key == "cid" || f.key == "sid" {
				t.Errorf("row %s uses param %s", k.name, f.key)
			}
		}
		for _, f := range k.params {
			if f.Key == "cid" || f.Key == "sid" {
				t.Errorf("row %s uses param %s", k.name, f.Key)
			}
		}
	}
}

// FuzzRunRoundTrip checks that any sequence of JSON messages (the input
// split at newlines, each given a sender from the bits of dirs) decodes
// from run frames, with or without back-references, to the same messages
// in order.
func FuzzRunRoundTrip(f *testing.F) {
	data, _ := os.ReadFile("testdata/corpus.jsonl")
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	for i := 0; i+3 <= len(lines); i += 3 {
		var msgs [][]byte
		for _, line := range lines[i : i+3] {
			if l, err := ReadLine(line); err == nil {
				msgs = append(msgs, l.Msg)
			}
		}
		f.Add(bytes.Join(msgs, []byte("\n")), uint8(i), 40, i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, in []byte, dirs uint8, max int, refs bool) {
		var ls []Line
		for i, m := range bytes.Split(in, []byte("\n")) {
			if _, err := accp.DecodeJSON(m); err != nil {
				return
			}
			ls = append(ls, Line{Msg: m, Dir: Direction(1 + (dirs>>(i%8))&1)})
		}
		r := NewEncoder("f", Options{Refs: refs}).Runs(RunOptions{MaxBodyTokens: max % 300})
		var frames []string
		for _, l := range ls {
			fs, err := r.Add(l.Msg, l.Dir, time.Time{})
			if err != nil {
				return // not an object, or deeper than the JSON decoder's limits
			}
			frames = append(frames, fs...)
		}
		fs, err := r.Flush()
		if err != nil {
			t.Fatal(err)
		}
		checkRuns(t, ls, append(frames, fs...))
	})
}

func TestRefs(t *testing.T) {
	const path = `/home/user/project/src/main.go`
	read := func(id string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"Read main.go","kind":"read","locations":[{"path":"` + path + `"}]}}}`
	}
	t.Run("repeated values become refs", func(t *testing.T) {
		enc := NewEncoder("r", Options{Refs: true})
		dec := NewDecoder("r", Options{})
		var frames []string
		for _, m := range []string{read("call_1"), read("call_2"), read("call_1")} {
			fr, err := enc.Encode([]byte(m), AgentToClient, time.Unix(1714000000, 0))
			if err != nil {
				t.Fatal(err)
			}
			frames = append(frames, fr)
			got, err := dec.DecodeValue(fr)
			if err != nil {
				t.Fatalf("%s: %v", fr, err)
			}
			if want, _ := accp.DecodeJSON([]byte(m)); !accp.JSONEqual(got, want) {
				g, _ := MarshalJSON(got)
				t.Errorf("%s decodes to %s", fr, g)
			}
		}
		if strings.Contains(frames[0], "$") {
			t.Errorf("first frame holds a ref: %s", frames[0])
		}
		// The title, the location list and the path are numbered in the
		// first frame; the third frame repeats the id of the first as well.
		if strings.Contains(frames[1], path) || strings.Contains(frames[1], "Read_main.go") || !strings.Contains(frames[1], "call_2") {
			t.Errorf("second frame repeats values: %s", frames[1])
		}
		if strings.Contains(frames[2], "call_1") {
			t.Errorf("third frame repeats the id: %s", frames[2])
		}
	})
	t.Run("unknown ref", func(t *testing.T) {
		fr := `@agent>req:tool{id:$0|title:x}[mid:111111111111,seq:1,ts:1714000000,sid:s]`
		if _, err := NewDecoder("r", Options{}).DecodeValue(fr); accp.CodeOf(err) != accp.CodeRefNotFound {
			t.Errorf("got %v, want E2001", err)
		}
	})
	t.Run("dropped frames are numbered", func(t *testing.T) {
		enc := NewEncoder("r", Options{Refs: true})
		dec := NewDecoder("r", Options{})
		msgs := []string{
			`{"jsonrpc":"2.0","id":5,"method":"session/cancel","params":{"sessionId":"s1"}}`,
			`{"jsonrpc":"2.0","id":5,"result":{"note":"a value long enough to number"}}`,
			`{"jsonrpc":"2.0","method":"_x/note","params":{"note":"a value long enough to number"}}`,
		}
		var got []any
		for _, m := range msgs {
			fr, err := enc.Encode([]byte(m), Unknown, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			x, err := dec.DecodeValue(fr)
			if err != nil {
				t.Fatalf("%s: %v", fr, err)
			}
			got = append(got, x)
		}
		if got[1] != nil {
			t.Errorf("the response of the cancelled chain was delivered: %v", got[1])
		}
		if want, _ := accp.DecodeJSON([]byte(msgs[2])); !accp.JSONEqual(got[2], want) {
			t.Errorf("the frame after a dropped one decodes to %v", got[2])
		}
	})
}

// BenchmarkLargeMessage encodes one fs/read_text_file result of about
// 940 KB as its own frame and through a RunEncoder, which must not spend
// much more on deciding that it goes alone.
func BenchmarkLargeMessage(b *testing.B) {
	content := strings.Repeat("func main() {\n\tfmt.Println(\"hello, world\")\n}\n", 20_000)
	req := []byte(`{"jsonrpc":"2.0","id":4,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/src/main.go"}}`)
	res := []byte(`{"jsonrpc":"2.0","id":4,"result":{"content":` + strconv.Quote(content) + `}}`)
	b.Run("Encode", func(b *testing.B) {
		for b.Loop() {
			enc := NewEncoder("b", Options{})
			if _, err := enc.Encode(req, AgentToClient, time.Time{}); err != nil {
				b.Fatal(err)
			}
			if _, err := enc.Encode(res, ClientToAgent, time.Time{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EncodeRefs", func(b *testing.B) {
		for b.Loop() {
			enc := NewEncoder("b", Options{Refs: true})
			if _, err := enc.Encode(req, AgentToClient, time.Time{}); err != nil {
				b.Fatal(err)
			}
			if _, err := enc.Encode(res, ClientToAgent, time.Time{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A tool call whose raw input nests 30 objects deep around the file:
	// each level is a value to number.
	deep := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"Write","kind":"edit","rawInput":` +
		strings.Repeat(`{"a":`, 30) + strconv.Quote(content[:100_000]) + strings.Repeat(`}`, 30) + `}}}`)
	b.Run("EncodeRefsDeep", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewEncoder("b", Options{Refs: true}).Encode(deep, AgentToClient, time.Time{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Decode", func(b *testing.B) {
		enc := NewEncoder("b", Options{})
		fr1, err1 := enc.Encode(req, AgentToClient, time.Time{})
		fr2, err2 := enc.Encode(res, ClientToAgent, time.Time{})
		if err1 != nil || err2 != nil {
			b.Fatal(err1, err2)
		}
		for b.Loop() {
			dec := NewDecoder("b", Options{})
			if _, err := dec.Decode(fr1); err != nil {
				b.Fatal(err)
			}
			if _, err := dec.Decode(fr2); err != nil {
				b.Fatal(err)
			}
		}
	})
	// RunAddPending is RunAdd with a message of the same sender pending:
	// the run it would join is measured as well.
	for _, bb := range []struct {
		name string
		req  Direction // the response goes ClientToAgent
	}{
		{"RunAdd", AgentToClient},
		{"RunAddPending", ClientToAgent},
	} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				r := NewEncoder("b", Options{}).Runs(RunOptions{})
				if _, err := r.Add(req, bb.req, time.Time{}); err != nil {
					b.Fatal(err)
				}
				if fs, err := r.Add(res, ClientToAgent, time.Time{}); err != nil || len(fs) != 2 {
					b.Fatalf("%d frames, %v", len(fs), err)
				}
			}
		})
	}
}
