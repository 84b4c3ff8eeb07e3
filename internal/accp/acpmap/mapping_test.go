package acpmap

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
	"github.com/acp-bridge/acp-bridge/internal/golden"
)

// TestNamedMappings checks the frames the issue names for particular ACP
// messages.
func TestNamedMappings(t *testing.T) {
	const sid = `"sessionId":"s1"`
	tests := []struct {
		name, msg, prefix string
	}{
		{"tool_call", `{"jsonrpc":"2.0","method":"session/update","params":{` + sid + `,"update":{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"Read a.go","kind":"read","status":"pending"}}}`,
			`@agent>req:tool{id:\'call_1|title:Read_a.go|tool:read|stat:pending}`},
		{"completed", `{"jsonrpc":"2.0","method":"session/update","params":{` + sid + `,"update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed"}}}`,
			`@agent>done:tool{id:\'call_1}`},
		{"failed", `{"jsonrpc":"2.0","method":"session/update","params":{` + sid + `,"update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"failed"}}}`,
			`@agent>fail:error{code:E4002|id:\'call_1}`},
		{"message chunk", `{"jsonrpc":"2.0","method":"session/update","params":{` + sid + `,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi there"}}}}`,
			`@agent>stream:msg{c:Hi_there}`},
		{"prompt", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{` + sid + `,"prompt":[{"type":"text","text":"fix it"}]}}`,
			`@client>req:prompt{p:[fix_it]}`},
		{"permission", `{"jsonrpc":"2.0","id":4,"method":"session/request_permission","params":{` + sid + `,"toolCall":{"toolCallId":"call_1"},"options":[]}}`,
			`@agent>wait:permit{tc:{toolCallId:\'call_1}|opts:[]}`},
		{"read result", `{"jsonrpc":"2.0","id":5,"result":{"content":"x"}}`,
			`@peer>done:rpc{r:{content:x}}`},
		{"unknown variant", `{"jsonrpc":"2.0","method":"session/update","params":{` + sid + `,"update":{"sessionUpdate":"brand_new","a":1}}}`,
			`@agent>sync:update{su:\'brand_new|u:{a:1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := NewEncoder("t", Options{Clock: func() time.Time { return time.Unix(1714000000, 0) }})
			frame, err := enc.Encode([]byte(tt.msg), Unknown, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(frame, tt.prefix+"[") {
				t.Errorf("got  %s\nwant %s[...]", frame, tt.prefix)
			}
			got, err := NewDecoder("t", Options{}).DecodeValue(frame)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := accp.DecodeJSON([]byte(tt.msg))
			if !accp.JSONEqual(got, want) {
				g, _ := MarshalJSON(got)
				t.Errorf("round trip: %s", g)
			}
		})
	}
}

// TestCorpusGolden keeps the frames of the corpus in a golden file, so a
// change to the mapping shows up as a readable diff.
func TestCorpusGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	enc := NewEncoder("corpus", Options{})
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		l, err := ReadLine(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		frame, err := enc.Encode(l.Msg, l.Dir, l.TS)
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(frame + "\n")
	}
	golden.Check(t, "testdata/corpus.accp", out.Bytes())
}

func TestDecoderDelivery(t *testing.T) {
	enc := NewEncoder("d", Options{})
	var frames []string
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`,
	} {
		f, err := enc.Encode([]byte(m), Unknown, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f)
	}
	// After the first frame, a second one: the first again, or the third.
	for _, tt := range []struct {
		name   string
		second int
		want   accp.Code
	}{
		{"duplicate", 0, accp.CodeDuplicate},
		{"gap", 2, accp.CodeSequenceGap},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dec := NewDecoder("d", Options{})
			if _, err := dec.Decode(frames[0]); err != nil {
				t.Fatal(err)
			}
			if _, err := dec.Decode(frames[tt.second]); accp.CodeOf(err) != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
	t.Run("garbage", func(t *testing.T) {
		if _, err := NewDecoder("d", Options{}).Decode("not a frame"); accp.CodeOf(err) != accp.CodeParse {
			t.Errorf("got %v, want E1001", err)
		}
	})
}

// TestDroppedFrameSid checks that a frame the delivery rules drop (its
// chain was cancelled) still sets the session id in force: the encoder left
// the next frame's sid out because the dropped one carried it.
func TestDroppedFrameSid(t *testing.T) {
	update := func(id, sid, text string) string {
		return `{"jsonrpc":"2.0",` + id + `"method":"session/update","params":{"sessionId":"` + sid +
			`","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}}}}`
	}
	msgs := []string{
		update("", "s1", "hi"),
		`{"jsonrpc":"2.0","id":7,"method":"session/cancel","params":{"sessionId":"s1"}}`,
		update(`"id":7,`, "s2", "dropped"),
		update("", "s2", "after"),
	}
	enc, dec := NewEncoder("s", Options{}), NewDecoder("s", Options{})
	var got []string
	for _, m := range msgs {
		fr, err := enc.Encode([]byte(m), Unknown, time.Unix(1714000000, 0))
		if err != nil {
			t.Fatal(err)
		}
		out, err := dec.Decode(fr)
		if err != nil {
			t.Fatal(err)
		}
		if out != nil {
			got = append(got, string(out))
		}
	}
	want := []string{msgs[0], msgs[1], msgs[3]}
	if len(got) != len(want) {
		t.Fatalf("got %d messages, want %d (the third dropped)", len(got), len(want))
	}
	for i := range want {
		g, _ := accp.DecodeJSON([]byte(got[i]))
		w, _ := accp.DecodeJSON([]byte(want[i]))
		if !accp.JSONEqual(g, w) {
			t.Errorf("message %d:\ngot  %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

// TestRejectedRunSid checks that a run frame rejected because one of its
// messages does not map back (E1004) still sets the sid its messages
// carried: the encoder counted them when it left later sids out.
func TestRejectedRunSid(t *testing.T) {
	dec := NewDecoder("s", Options{})
	run := `@agent>sync:run{m:[stream_msg:{c:a,sid:s1},fail_error:{c:b,sid:s2}]}[mid:a00000000001,seq:1,ts:1714000000]`
	if _, err := dec.DecodeValues(run); accp.CodeOf(err) != accp.CodeInvalidType {
		t.Fatalf("got %v, want E1004", err)
	}
	x, err := dec.DecodeValue(`@agent>stream:msg{c:c}[mid:a00000000002,seq:2,ts:1714000000]`)
	if err != nil {
		t.Fatal(err)
	}
	if sid, _ := getPath(x.(map[string]any), p("params", "sessionId")); sid != "s2" {
		t.Errorf("the next message has sessionId %v, want s2", sid)
	}
}

func TestStructural(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"read result", `{"jsonrpc":"2.0","id":1,"result":{"content":"file body"}}`, `{"jsonrpc":"2.0","id":1,"result":{"content":""}}`},
		{"write", `{"jsonrpc":"2.0","id":1,"method":"fs/write_text_file","params":{"path":"/a","content":"body"}}`, `{"jsonrpc":"2.0","id":1,"method":"fs/write_text_file","params":{"path":"/a","content":""}}`},
		{"terminal output", `{"id":2,"result":{"output":"log","truncated":false}}`, `{"id":2,"result":{"output":"","truncated":false}}`},
		{"tool content", `{"method":"session/update","params":{"update":{"sessionUpdate":"tool_call_update","title":"t","content":[{"type":"content","content":{"type":"text","text":"out"}},{"type":"diff","path":"/a","oldText":"o","newText":"n"}],"rawOutput":{"stdout":"x","code":1}}}}`,
			`{"method":"session/update","params":{"update":{"sessionUpdate":"tool_call_update","title":"t","content":[{"type":"content","content":{"type":"text","text":""}},{"type":"diff","path":"/a","oldText":"","newText":""}],"rawOutput":{"stdout":"","code":1}}}}`},
		{"prose stays", `{"method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`,
			`{"method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := accp.DecodeJSON([]byte(tt.in))
			want, _ := accp.DecodeJSON([]byte(tt.want))
			if got := Structural(in); !accp.JSONEqual(got, want) {
				g, _ := MarshalJSON(got)
				t.Errorf("got %s", g)
			}
			orig, _ := accp.DecodeJSON([]byte(tt.in))
			if !accp.JSONEqual(in, orig) {
				t.Error("Structural changed its input")
			}
		})
	}
}

func TestStats(t *testing.T) {
	st := NewStats()
	data, _ := os.ReadFile("testdata/corpus.jsonl")
	n := 0
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		l, err := ReadLine(line)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Add(l); err != nil {
			t.Fatal(err)
		}
		n++
	}
	sum := 0
	for _, k := range st.Kinds {
		sum += k.Messages
		if k.ACCP <= 0 || k.Compact <= 0 || k.Pretty < k.Compact {
			t.Errorf("implausible counts %+v", k)
		}
	}
	if sum != n || st.Total.Messages != n || st.Structural.Messages != n {
		t.Errorf("counted %d/%d/%d messages, want %d", sum, st.Total.Messages, st.Structural.Messages, n)
	}
	if st.Structural.Compact >= st.Total.Compact {
		t.Errorf("blanking verbatim content did not shrink the corpus: %+v vs %+v", st.Structural, st.Total)
	}
	if err := st.EndStream(); err != nil {
		t.Fatal(err)
	}
	for i, form := range Forms {
		for _, r := range []struct {
			name   string
			got    RunTokens
			perMsg Tokens
		}{{"whole", st.Forms[i], st.Total}, {"structural", st.StructuralForms[i], st.Structural}} {
			name := form.String() + " " + r.name
			if r.got.Messages != n || r.got.Compact != r.perMsg.Compact {
				t.Errorf("%s counted %d messages, %d JSON tokens; want %d, %d", name, r.got.Messages, r.got.Compact, n, r.perMsg.Compact)
			}
			if form.Runs && (r.got.Frames == 0 || r.got.Frames >= n || r.got.Envelope >= r.perMsg.Envelope) {
				t.Errorf("%s: implausible %+v (per message %+v)", name, r.got, r.perMsg)
			}
			if !form.Runs && r.got.Frames != n {
				t.Errorf("%s: %d frames for %d messages", name, r.got.Frames, n)
			}
			if r.got.ACCP >= r.perMsg.ACCP || r.got.Larger > r.got.Frames {
				t.Errorf("%s: %d tokens, not fewer than %d per message; %d of %d frames larger", name, r.got.ACCP, r.perMsg.ACCP, r.got.Larger, r.got.Frames)
			}
		}
	}
}

// FuzzMapRoundTrip checks decode(encode(x)) == x for any JSON value.
func FuzzMapRoundTrip(f *testing.F) {
	data, _ := os.ReadFile("testdata/corpus.jsonl")
	for _, line := range bytes.Split(data, []byte("\n")) {
		if l, err := ReadLine(line); err == nil {
			f.Add([]byte(l.Msg))
		}
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		want, err := accp.DecodeJSON(msg)
		if err != nil {
			return
		}
		enc := NewEncoder("f", Options{})
		frame, err := enc.Encode(msg, Unknown, time.Time{})
		if err != nil {
			return // deeper than the JSON decoder's limits, or not an object
		}
		got, err := NewDecoder("f", Options{}).DecodeValue(frame)
		if err != nil {
			t.Fatalf("decode %s: %v", frame, err)
		}
		if !accp.JSONEqual(got, want) {
			t.Fatalf("round trip differs for %s\nframe %s", msg, frame)
		}
	})
}

// FuzzDecodeFrame feeds arbitrary text to the decoder: it must return a
// message or an error, never panic.
func FuzzDecodeFrame(f *testing.F) {
	data, _ := os.ReadFile("testdata/corpus.accp")
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" {
			f.Add(line)
		}
	}
	// Refs to values of the same frame, doubling at each level, and many
	// refs to one value.
	f.Add(noteFrame("{a:xxxxxxxx,b:[$1,$1],c:[$2,$2],d:[$3,$3],e:[$4,$4],f:[$5,$5]}", 1))
	f.Add(noteFrame("{a:"+strings.Repeat("y", 100)+",b:["+strings.TrimSuffix(strings.Repeat("$1,", 100), ",")+"]}", 1))
	// Nested tables with a malformed row.
	f.Add(noteFrame("{p:"+strings.Repeat("[cols:[a],[", 8)+"1"+strings.Repeat("],0]", 8)+"}", 1))
	// A stream (one frame a line): values doubled over frames, then a run
	// of refs to the largest.
	stream := []string{noteFrame("{a:"+strings.Repeat("z", 64)+"}", 1)}
	for i := range 4 {
		stream = append(stream, noteFrame(fmt.Sprintf("{a:$%d,b:$%d}", i+1, i+1), i+2))
	}
	stream = append(stream, "@agent>sync:run{m:[sync_note:{m:$0,p:$5},sync_note:{m:$0,p:$5},sync_note:{m:$0,p:$5}]}[mid:a00000000006,seq:6,ts:1714000000]")
	f.Add(strings.Join(stream, "\n"))
	f.Fuzz(func(t *testing.T, frame string) {
		x, err := NewDecoder("corpus", Options{}).DecodeValue(frame)
		if err == nil && x != nil {
			if _, err := MarshalJSON(x); err != nil {
				t.Fatalf("decoded value does not marshal: %v", err)
			}
		}
		// Each line a frame of one session, runs included; a small budget
		// keeps what refs may build small.
		dec := NewDecoder("corpus", Options{MaxRefBytes: 1 << 16})
		lines := strings.Split(frame, "\n")
		for _, line := range lines[:min(len(lines), 8)] {
			xs, _ := dec.DecodeValues(line)
			for _, x := range xs {
				if _, err := MarshalJSON(x); err != nil {
					t.Fatalf("decoded value does not marshal: %v", err)
				}
			}
		}
	})
}

// TestDefaults checks the values a frame leaves out because they are
// implied: the end_turn stop reason and an empty result. A message that
// lacks a required field the default would fill is carried whole.
func TestDefaults(t *testing.T) {
	prompt := `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
	write := `{"jsonrpc":"2.0","id":4,"method":"fs/write_text_file","params":{"sessionId":"s1","path":"/a","content":""}}`
	tests := []struct{ name, req, resp, prefix string }{
		{"end_turn", prompt, `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`, `@agent>end:prompt{}`},
		{"other stop reason", prompt, `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"max_tokens"}}`, `@agent>end:prompt{stop:\'max_tokens}`},
		{"no stop reason", prompt, `{"jsonrpc":"2.0","id":3,"result":{}}`, `@agent>sync:json{`},
		{"empty result", write, `{"jsonrpc":"2.0","id":4,"result":{}}`, `@client>done:write{}`},
		{"null result", write, `{"jsonrpc":"2.0","id":4,"result":null}`, `@client>done:write{x:{result:~}}`},
		{"no result", write, `{"jsonrpc":"2.0","id":4}`, `@client>sync:json{`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := NewEncoder("d", Options{})
			dec := NewDecoder("d", Options{})
			for i, m := range []string{tt.req, tt.resp} {
				dir := ClientToAgent
				if (i == 1) == (tt.req == prompt) {
					dir = AgentToClient
				}
				fr, err := enc.Encode([]byte(m), dir, time.Unix(1714000000, 0))
				if err != nil {
					t.Fatal(err)
				}
				if i == 1 && !strings.HasPrefix(fr, tt.prefix) {
					t.Errorf("got  %s\nwant %s...", fr, tt.prefix)
				}
				got, err := dec.DecodeValue(fr)
				if err != nil {
					t.Fatal(err)
				}
				if want, _ := accp.DecodeJSON([]byte(m)); !accp.JSONEqual(got, want) {
					g, _ := MarshalJSON(got)
					t.Errorf("%s decodes to %s", fr, g)
				}
			}
		})
	}
}
