package acpmap

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/acp-bridge/acp-bridge/internal/accp"
	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// noteFrame is the frame of an _x/note notification whose params are
// body, with the envelope of seq. It numbers the method name first.
func noteFrame(body string, seq int) string {
	return fmt.Sprintf(`@agent>sync:note{m:\'_x/note|p:%s}[mid:a%011d,seq:%d,ts:1714000000]`, body, seq, seq)
}

// bigNote returns the first frame of a session: an _x/note whose note is
// n bytes of text. It numbers "_x/note" as $0 and the note as $1.
func bigNote(t *testing.T, n int) string {
	t.Helper()
	msg := `{"jsonrpc":"2.0","method":"_x/note","params":{"note":"` + strings.Repeat("x", n) + `"}}`
	fr, err := NewEncoder("b", Options{Refs: true}).Encode([]byte(msg), AgentToClient, time.Unix(1714000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	return fr
}

// TestRefBudget checks that the refs of one message may stand for only so
// much text: a small frame of many refs to a large value is rejected
// (E2003) without being expanded, and later refs then fail (E2001).
func TestRefBudget(t *testing.T) {
	tests := []struct {
		name     string
		big      int // bytes of the value referenced
		refs     int // refs to it in the second frame
		maxBytes int // Options.MaxRefBytes
		want     accp.Code
		run      int // if not 0, the refs are in each of this many messages of a run frame
	}{
		{"within the budget", 1000, 10, 20_000, "", 0},
		{"over the budget", 1000, 30, 20_000, accp.CodeBudgetExceeded, 0},
		{"one ref over", 30_000, 1, 20_000, accp.CodeBudgetExceeded, 0},
		// The reviewer's frame: 60 KB expanding to 2 GB of JSON.
		{"bomb at the default budget", 100_000, 20_000, 0, accp.CodeBudgetExceeded, 0},
		// The budget covers a run frame whole, not each of its messages.
		{"run within the budget", 1000, 5, 20_000, "", 3},
		{"run over the budget", 1000, 10, 20_000, accp.CodeBudgetExceeded, 3},
		// Each message 10 MB, within the default budget; 300 MB in all.
		{"run bomb at the default budget", 100_000, 100, 0, accp.CodeBudgetExceeded, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dec := NewDecoder("b", Options{MaxRefBytes: tt.maxBytes})
			if _, err := dec.DecodeValue(bigNote(t, tt.big)); err != nil {
				t.Fatal(err)
			}
			refs := "[" + strings.TrimSuffix(strings.Repeat("$1,", tt.refs), ",") + "]"
			bomb := noteFrame("{p:"+refs+"}", 2)
			if tt.run > 0 {
				entry := "sync_note:{m:$0,p:{p:" + refs + "}}"
				bomb = fmt.Sprintf("@agent>sync:run{m:[%s]}[mid:a%011d,seq:2,ts:1714000000]",
					strings.TrimSuffix(strings.Repeat(entry+",", tt.run), ","), 2)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var xs []any
			var err error
			took := cputime.Of(func() { xs, err = dec.DecodeValues(bomb) })
			runtime.ReadMemStats(&after)
			if accp.CodeOf(err) != tt.want {
				t.Fatalf("got %v, want code %q", err, tt.want)
			}
			if tt.want == "" {
				if len(xs) != max(tt.run, 1) {
					t.Fatalf("got %d messages, want %d", len(xs), max(tt.run, 1))
				}
				for _, x := range xs {
					list, _ := getPath(x.(map[string]any), p("params", "p"))
					if l, ok := list.([]any); !ok || len(l) != tt.refs || l[0] != strings.Repeat("x", tt.big) {
						t.Errorf("decoded params.p is not %d copies of the note", tt.refs)
					}
				}
				return
			}
			if took > 2*time.Second {
				t.Errorf("rejecting took %v of CPU", took)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("rejecting allocated %d MB", alloc>>20)
			}
			if _, err := dec.DecodeValue(noteFrame("{p:$1}", 3)); accp.CodeOf(err) != accp.CodeRefNotFound {
				t.Errorf("a ref after the rejected frame: got %v, want E2001", err)
			}
			if _, err := dec.DecodeValue(noteFrame("{p:plain}", 4)); err != nil {
				t.Errorf("a frame without refs after the rejected one: %v", err)
			}
		})
	}
}

// TestRefBudgetDoubling checks the budget on refs to values numbered in
// the same frame: each array holds the previous one twice, so the text
// doubles with every level of a frame that grows by a few bytes.
func TestRefBudgetDoubling(t *testing.T) {
	d, err := decodeFresh(doublingRefs("xxxxxxxx", 40))
	if accp.CodeOf(err) != accp.CodeBudgetExceeded {
		t.Fatalf("got %v, want E2003", err)
	}
	if d > 2*time.Second {
		t.Errorf("rejecting took %v of CPU", d)
	}
}

// doublingRefs is a frame whose param a is first and whose every later
// param is an array holding the one before it twice, by refs: the text
// grows by a few bytes a level, the value it stands for doubles.
func doublingRefs(first string, levels int) string {
	var b strings.Builder
	b.WriteString("{a:" + first)
	// The method name is $0, a is $1; each array is numbered after it.
	for i := range levels {
		fmt.Fprintf(&b, ",b%02d:[$%d,$%d]", i, i+1, i+1)
	}
	b.WriteString("}")
	return noteFrame(b.String(), 1)
}

// decodeFresh decodes frame with a new decoder and returns the CPU time it
// took and the error.
func decodeFresh(frame string) (time.Duration, error) {
	var err error
	d := cputime.Of(func() { _, err = NewDecoder("b", Options{}).DecodeValue(frame) })
	return d, err
}

// TestEncoderRefBudget checks that the encoder writes no frame the
// decoder's ref budget rejects: past the budget a repeated value is
// written inline.
func TestEncoderRefBudget(t *testing.T) {
	opt := Options{Refs: true, MaxRefBytes: 5000}
	enc := NewEncoder("b", opt)
	dec := NewDecoder("b", opt)
	big := strings.Repeat("x", 1000)
	for i, m := range []string{
		`{"jsonrpc":"2.0","method":"_x/note","params":{"note":"` + big + `"}}`,
		`{"jsonrpc":"2.0","method":"_x/note","params":{"p":["` + strings.TrimSuffix(strings.Repeat(big+`","`, 12), `","`) + `"]}}`,
	} {
		fr := encodeDecodes(t, enc, dec, i, m)
		if i == 1 && (strings.Count(fr, "$1") != 4 || !strings.Contains(fr, big)) {
			t.Errorf("want 4 refs to the note and the rest inline: %.300s", fr)
		}
	}
}

// TestRunEncoderRefBudget checks that the run encoder writes no run frame
// whose refs, summed over its messages, go over the budget the decoder
// applies to the whole frame: each message's refs fit alone, two do not.
func TestRunEncoderRefBudget(t *testing.T) {
	opt := Options{Refs: true, MaxRefBytes: 5000}
	enc, dec := NewEncoder("b", opt), NewDecoder("b", opt)
	runs := enc.Runs(RunOptions{MaxBodyTokens: -1})
	big := strings.Repeat("x", 1000)
	refs := `"` + strings.Repeat(big+`","`, 4)
	msgs := []string{`{"jsonrpc":"2.0","method":"_x/note","params":{"note":"` + big + `"}}`}
	for i := range 3 { // the arrays differ, so only the note is a ref
		msgs = append(msgs, fmt.Sprintf(`{"jsonrpc":"2.0","method":"_x/note","params":{"p":[%s%d"]}}`, refs, i))
	}
	var raw [][]byte
	for _, m := range msgs {
		raw = append(raw, []byte(m))
	}
	frames := runFrames(t, runs, raw...)
	var got []any
	for _, fr := range frames {
		xs, err := dec.DecodeValues(fr)
		if err != nil {
			t.Fatalf("decoding %.200s: %v", fr, err)
		}
		got = append(got, xs...)
	}
	if len(got) != len(msgs) {
		t.Fatalf("got %d messages, want %d", len(got), len(msgs))
	}
	for i, m := range msgs {
		if want, _ := accp.DecodeJSON([]byte(m)); !accp.JSONEqual(got[i], want) {
			t.Errorf("message %d decodes differently", i+1)
		}
	}
	// The first two messages make a run; each later one its own frame.
	if len(frames) != 3 || strings.Count(frames[2], "$1") != 4 {
		t.Errorf("want 3 frames, the last holding one message of 4 refs; got %d", len(frames))
	}
}

// TestRefTableAfterFailure checks that after a frame fails partway, with
// values of its own numbered before the bad ref, no later ref resolves to
// what the encoder did not mean.
func TestRefTableAfterFailure(t *testing.T) {
	dec := NewDecoder("b", Options{})
	if _, err := dec.DecodeValue(bigNote(t, 20)); err != nil {
		t.Fatal(err)
	}
	// The method name and a are numbered ($3, $4) before b fails.
	if _, err := dec.DecodeValue(noteFrame("{a:numbered_before_the_failure,b:$99}", 2)); accp.CodeOf(err) != accp.CodeRefNotFound {
		t.Fatalf("got %v, want E2001", err)
	}
	for i, ref := range []string{"$1", "$4"} {
		if x, err := dec.DecodeValue(noteFrame("{c:"+ref+"}", 3+i)); accp.CodeOf(err) != accp.CodeRefNotFound {
			t.Errorf("%s after the failure: got %v, %v; want E2001", ref, x, err)
		}
	}
}

// TestRefValuesOwnTheirText checks that a numbered value shares no memory
// with the frame line it came from, so the table does not keep whole
// lines alive.
func TestRefValuesOwnTheirText(t *testing.T) {
	dec := NewDecoder("b", Options{})
	pad := strings.Repeat("y", 1<<16)
	line := noteFrame(`{path:/home/user/src/main.go,short:[ab,cd,{k:v}],pad:`+pad+`}`, 1)
	if _, err := dec.DecodeValue(line); err != nil {
		t.Fatal(err)
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(line)))
	hi := lo + uintptr(len(line))
	in := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return s != "" && p >= lo && p < hi
	}
	var walk func(v accp.Value) bool
	walk = func(v accp.Value) bool {
		if in(v.Str) {
			return true
		}
		for _, e := range v.List {
			if walk(e) {
				return true
			}
		}
		for _, f := range v.Fields {
			if in(f.Key) || walk(f.Val) {
				return true
			}
		}
		return false
	}
	if len(dec.refs.vals) < 3 {
		t.Fatalf("%d values numbered", len(dec.refs.vals))
	}
	for i, v := range dec.refs.vals {
		if walk(v) {
			t.Errorf("value %d (%.60s) points into the frame line", i, accp.AppendValue(nil, v))
		}
	}
}

// concurrentMessages returns n messages that repeat values (so refs are
// written) and switch between two sessions (so sids are left out).
func concurrentMessages(n int) [][]byte {
	var out [][]byte
	for i := range n {
		sid := "s" + strconv.Itoa(i%2)
		out = append(out, fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"%s","update":{"sessionUpdate":"tool_call","toolCallId":"call_%d","title":"Read file %d","kind":"read","locations":[{"path":"/home/user/project/file%d.go"}]}}}`, sid, i%3, i%4, i%5))
	}
	return out
}

// trials is how many times a concurrency test runs its scenario: n, or a
// tenth of it with -short.
func trials(n int) int {
	if testing.Short() {
		return n / 10
	}
	return n
}

// concurrently calls f with each of msgs and its index, each call in its
// own goroutine, and returns what the calls returned, in the order they
// returned it.
func concurrently[T any](msgs [][]byte, f func(i int, m []byte) []T) []T {
	var mu sync.Mutex
	var out []T
	var wg sync.WaitGroup
	for i, m := range msgs {
		wg.Go(func() {
			got := f(i, m)
			mu.Lock()
			out = append(out, got...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// sealed is a frame and the message it was made of.
type sealed struct {
	seq   int
	frame string
	msg   []byte
}

func seqOf(t testing.TB, frame string) int {
	f, err := Limits.Parse(frame, NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	v, _ := f.MetaValue("seq")
	n, _ := strconv.Atoi(v.Str)
	return n
}

// checkInSeqOrder decodes the frames in seq order and compares each
// message with the one its frame was made of.
func checkInSeqOrder(t *testing.T, out []sealed) {
	t.Helper()
	slices.SortFunc(out, func(a, b sealed) int { return a.seq - b.seq })
	dec := NewDecoder("c", Options{})
	for _, s := range out {
		x, err := dec.DecodeValue(s.frame)
		if err != nil {
			t.Fatalf("seq %d: %v\n%s", s.seq, err, s.frame)
		}
		if want, _ := accp.DecodeJSON(s.msg); !accp.JSONEqual(x, want) {
			g, _ := MarshalJSON(x)
			t.Fatalf("seq %d decodes to %s\nwant %s", s.seq, g, s.msg)
		}
	}
}

// TestEncoderConcurrent encodes from several goroutines into one encoder
// with refs: whatever order the frames are sealed in, decoding them in seq
// order gives each its own message.
func TestEncoderConcurrent(t *testing.T) {
	msgs := concurrentMessages(8)
	for trial := range trials(200) {
		enc := NewEncoder("c", Options{Refs: true})
		out := concurrently(msgs, func(_ int, m []byte) []sealed {
			fr, err := enc.Encode(m, AgentToClient, time.Unix(1714000000, 0))
			if err != nil {
				t.Error(err)
				return nil
			}
			return []sealed{{seqOf(t, fr), fr, m}}
		})
		if t.Failed() {
			return
		}
		t.Run(strconv.Itoa(trial), func(t *testing.T) { checkInSeqOrder(t, out) })
		if t.Failed() {
			return
		}
	}
}

// TestRunEncoderConcurrent is TestEncoderConcurrent for a RunEncoder with
// a bound small enough that most messages end a run.
func TestRunEncoderConcurrent(t *testing.T) {
	msgs := concurrentMessages(8)
	for trial := range trials(100) {
		r := NewEncoder("c", Options{Refs: true}).Runs(RunOptions{MaxBodyTokens: 60})
		frames := concurrently(msgs, func(i int, m []byte) []string {
			fs, err := r.Add(m, Direction(1+i%2), time.Unix(1714000000, 0))
			if err != nil {
				t.Error(err)
			}
			return fs
		})
		fs, err := r.Flush()
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, fs...)
		slices.SortFunc(frames, func(a, b string) int { return seqOf(t, a) - seqOf(t, b) })
		dec := NewDecoder("c", Options{})
		n := 0
		for _, fr := range frames {
			xs, err := dec.DecodeValues(fr)
			if err != nil {
				t.Fatalf("trial %d: %v\n%s", trial, err, fr)
			}
			n += len(xs)
		}
		if n != len(msgs) {
			t.Fatalf("trial %d: %d messages decoded, want %d", trial, n, len(msgs))
		}
	}
}

// TestDecoderConcurrent decodes one session's frames from several
// goroutines at once, each retrying while its frame's turn has not come
// (E3003): every message comes out as it went in. The first frame is
// decoded first, since a session takes its first seq from it.
func TestDecoderConcurrent(t *testing.T) {
	msgs := concurrentMessages(40)
	enc := NewEncoder("c", Options{Refs: true})
	frames := make([]string, len(msgs))
	for i, m := range msgs {
		fr, err := enc.Encode(m, AgentToClient, time.Unix(1714000000, 0))
		if err != nil {
			t.Fatal(err)
		}
		frames[i] = fr
	}
	for range trials(200) {
		dec := NewDecoder("c", Options{})
		if _, err := dec.DecodeValue(frames[0]); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for _, i := range rand.Perm(len(frames) - 1) {
			i++
			wg.Go(func() {
				for {
					x, err := dec.DecodeValue(frames[i])
					if accp.CodeOf(err) == accp.CodeSequenceGap {
						runtime.Gosched()
						continue
					}
					if err != nil {
						t.Errorf("frame %d: %v", i+1, err)
						return
					}
					if want, _ := accp.DecodeJSON(msgs[i]); !accp.JSONEqual(x, want) {
						g, _ := MarshalJSON(x)
						t.Errorf("frame %d decodes to %s\nwant %s", i+1, g, msgs[i])
					}
					return
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
	}
}

// TestRefBytesBudget checks that a value too large for what is left of
// the numbering's byte budget is skipped without ending the numbering:
// smaller values seen later are still numbered and referenced.
func TestRefBytesBudget(t *testing.T) {
	saved := refMaxBytes
	t.Cleanup(func() { refMaxBytes = saved })
	refMaxBytes = 200
	note := func(s string) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"_x/note","params":{"note":"` + s + `"}}`)
	}
	msgs := [][]byte{note(strings.Repeat("long ", 50)), note("a later value to repeat"), note("a later value to repeat")}
	enc := NewEncoder("b", Options{Refs: true})
	dec := NewDecoder("b", Options{})
	var last string
	for i, m := range msgs {
		fr, err := enc.Encode(m, AgentToClient, time.Unix(1714000000, 0))
		if err != nil {
			t.Fatal(err)
		}
		x, err := dec.DecodeValue(fr)
		if err != nil {
			t.Fatalf("message %d: %v\n%s", i+1, err, fr)
		}
		if want, _ := accp.DecodeJSON(m); !accp.JSONEqual(x, want) {
			t.Fatalf("message %d decodes differently from %s", i+1, m)
		}
		last = fr
	}
	if strings.Contains(last, "later") {
		t.Errorf("the repeated value was not referenced: %s", last)
	}
}

// TestRenderSpans checks that the encoder's one-pass rendering gives each
// string, array and map of a message the canonical text AppendValue gives
// it, for every message of the corpus.
func TestRenderSpans(t *testing.T) {
	// An unsorted map with a pair and escapes in keys, as a parser can
	// leave none but a caller can build.
	unsorted := accp.Value{Kind: accp.KindMap, Fields: []accp.Field{
		{Key: "zed.dev/x", Val: accp.Array(accp.Value{Kind: accp.KindPair, Fields: []accp.Field{{Key: "k", Val: accp.String("a value with spaces")}}})},
		{Key: "a b", Val: accp.Value{Kind: accp.KindMap, Fields: []accp.Field{{Key: "y", Val: accp.Int(2)}, {Key: "x", Val: accp.String("long enough")}}}},
	}}
	values := []accp.Value{unsorted}
	for _, l := range readLines(t, "testdata/corpus.jsonl") {
		x, err := accp.DecodeJSON(l.Msg)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := toValue(x); err == nil {
			values = append(values, v)
		}
	}
	for i, v := range values {
		var tab refTable
		tab.render(v)
		if got, want := string(tab.buf), string(accp.AppendValue(nil, v)); got != want {
			t.Fatalf("message %d renders as\n%s\nwant\n%s", i+1, got, want)
		}
		n := 0
		var walk func(v accp.Value)
		walk = func(v accp.Value) {
			if v.Kind == accp.KindPair {
				walk(v.Fields[0].Val)
				return
			}
			if !numbered(v.Kind) {
				return
			}
			s := tab.spans[n]
			if got, want := string(tab.buf[s.start:s.end]), string(accp.AppendValue(nil, v)); got != want {
				t.Fatalf("message %d, value %d: span %q, want %q", i+1, n, got, want)
			}
			n++
			for _, e := range v.List {
				walk(e)
			}
			for _, f := range sortedFields(v.Fields) {
				walk(f.Val)
			}
			if s.next != n {
				t.Fatalf("message %d: span next %d, want %d", i+1, s.next, n)
			}
		}
		walk(v)
		if n != len(tab.spans) {
			t.Fatalf("message %d: %d spans, walked %d", i+1, len(tab.spans), n)
		}
	}
}

// TestRefBudgetValues checks the bound on the values refs stand for: a
// list of small maps referenced often enough is written inline by the
// encoder past the bound, and a frame that goes past it is rejected
// (E2003), as is a frame of a few hundred bytes whose refs double a small
// map twenty times (16 MB of JSON and 648 MB allocated without the bound).
func TestRefBudgetValues(t *testing.T) {
	list := "[" + strings.TrimSuffix(strings.Repeat(`{"k":1,"l":2},`, 1000), ",") + "]"
	msgs := []string{
		`{"jsonrpc":"2.0","method":"_x/note","params":{"list":` + list + `}}`,
		`{"jsonrpc":"2.0","method":"_x/note","params":{"lists":[` + strings.TrimSuffix(strings.Repeat(list+",", 30), ",") + `]}}`,
	}
	enc := NewEncoder("b", Options{Refs: true})
	dec := NewDecoder("b", Options{})
	var frames []string
	for i, m := range msgs {
		frames = append(frames, encodeDecodes(t, enc, dec, i, m))
	}
	// Each list is 3001 values: 21 refs fit in 65,536, the other 9 lists
	// are inline.
	if refs := strings.Count(frames[1], "$"); refs != 22 { // and the method name
		t.Errorf("%d refs in the second frame, want 22", refs)
	}

	dec = NewDecoder("b", Options{})
	if _, err := dec.DecodeValue(frames[0]); err != nil {
		t.Fatal(err)
	}
	// The list is $2 (after the method name and the first map).
	bomb := noteFrame("{lists:["+strings.TrimSuffix(strings.Repeat("$2,", 30), ",")+"]}", 2)
	if _, err := dec.DecodeValue(bomb); accp.CodeOf(err) != accp.CodeBudgetExceeded {
		t.Errorf("30 refs to the list: got %v, want E2003", err)
	}

	d, err := decodeFresh(doublingRefs("{k:1,l:2}", 19))
	if accp.CodeOf(err) != accp.CodeBudgetExceeded {
		t.Errorf("doubling maps: got %v, want E2003", err)
	}
	if d > time.Second {
		t.Errorf("rejecting took %v of CPU", d)
	}
}

// TestRefDecodeCopiesNothing checks that resolving refs does not copy the
// arrays and maps of a frame: numbering a list of 100,000 numbers without
// refs allocates a bit per number, not a copy of the list (some 100 bytes
// a value).
func TestRefDecodeCopiesNothing(t *testing.T) {
	const n = 100_000
	line := noteFrame("{p:["+strings.TrimSuffix(strings.Repeat("7,", n), ",")+"],q:{k:1}}", 1)
	f, err := Limits.Parse(line, NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	var tab refTable
	tab.maxExpand = DefaultMaxRefBytes
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := tab.decodeFrames([]*accp.Frame{f}, 1); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("numbering %d values allocated %d KiB", n, alloc>>10)
	// A copy of the list is 11 MiB; 0.1 MiB is measured, 1.5 MiB with -race.
	if alloc > 4<<20 {
		t.Errorf("numbering %d values allocated %d KiB", n, alloc>>10)
	}
	if tab.n != 3 { // the method name, the list, the params
		t.Errorf("%d values numbered, want 3", tab.n)
	}
}

// TestRefHeldValues checks that the numbering holds only so many values
// inside what it numbered, whatever their text: lists of small numbers
// are a few bytes of text a number but some 80 bytes of memory. Past the
// bound a repeated list is written inline, later small values are still
// numbered, and the live heap stays within the bound's worth.
func TestRefHeldValues(t *testing.T) {
	saved := refMaxHeldValues
	t.Cleanup(func() { refMaxHeldValues = saved })
	refMaxHeldValues = 50_000
	const lists, size = 10, 20_000
	list := func(i int) string { // distinct lists, so none is a ref
		return fmt.Sprintf("[%d%s]", i, strings.Repeat(",0", size-1))
	}
	opt := Options{Refs: true}
	enc, dec := NewEncoder("v", opt), NewDecoder("v", opt)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var frames []string
	for i := range lists + 2 {
		m := fmt.Sprintf(`{"jsonrpc":"2.0","method":"_x/note","params":{"p":%s}}`, list(i))
		if i >= lists { // the last list again, and a small value to repeat
			m = fmt.Sprintf(`{"jsonrpc":"2.0","method":"_x/note","params":{"p":"a later value to repeat","q":%s}}`, list(lists-1))
		}
		frames = append(frames, encodeDecodes(t, enc, dec, i, m))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := max(int64(after.HeapAlloc)-int64(before.HeapAlloc), 0)
	t.Logf("live heap grew by %d KiB; %d values held", grown>>10, dec.refs.held)
	if dec.refs.held > refMaxHeldValues || enc.refs.held != dec.refs.held {
		t.Errorf("values held: encoder %d, decoder %d, bound %d", enc.refs.held, dec.refs.held, refMaxHeldValues)
	}
	if grown > 12<<20 { // 200,000 values would be 16 MiB
		t.Errorf("live heap grew by %d KiB", grown>>10)
	}
	if last := frames[len(frames)-1]; strings.Contains(last, "later") || !strings.Contains(last, "0,0,0") {
		t.Errorf("want the small value as a ref and the list inline: %.200s", last)
	}
	runtime.KeepAlive(enc)
	runtime.KeepAlive(dec)
}

// encodeDecodes encodes message i (counted from 0) with enc, decodes the
// frame with dec, and fails the test unless it decodes to m as JSON. It
// returns the frame.
func encodeDecodes(t *testing.T, enc *Encoder, dec *Decoder, i int, m string) string {
	t.Helper()
	fr, err := enc.Encode([]byte(m), AgentToClient, time.Unix(1714000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	x, err := dec.DecodeValue(fr)
	if err != nil {
		t.Fatalf("message %d: %v", i+1, err)
	}
	if want, _ := accp.DecodeJSON([]byte(m)); !accp.JSONEqual(x, want) {
		t.Fatalf("message %d decodes differently", i+1)
	}
	return fr
}

// runFrames adds msgs to runs as the agent's and flushes, returning every
// frame made.
func runFrames(t *testing.T, runs *RunEncoder, msgs ...[]byte) []string {
	t.Helper()
	var frames []string
	for _, m := range msgs {
		out, err := runs.Add(m, AgentToClient, time.Unix(1714000000, 0))
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, out...)
	}
	out, err := runs.Flush()
	if err != nil {
		t.Fatal(err)
	}
	return append(frames, out...)
}
