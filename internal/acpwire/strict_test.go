package acpwire

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// TestStrictDecoderRefuses: each message below would be read one way by
// some peer's parser and another way by the bridge, or not at all by
// some peer; the strict decoder refuses it and says why.
func TestStrictDecoderRefuses(t *testing.T) {
	tests := []struct {
		name, msg, why string
	}{
		{"duplicate at depth", `{"params":{"path":"/ws/a","path":"/etc/passwd"}}`, "duplicate"},
		{"duplicate by escape", `{"params":{"path":"/ws/a","p\u0061th":"/etc/passwd"}}`, "duplicate"},
		{"duplicate deep in array", `{"params":{"x":[{"a":1,"a":2}]}}`, "duplicate"},
		{"case pair", `{"params":{"path":"/ws/a","PATH":"/etc/passwd"}}`, "case"},
		{"case alone on a read field", `{"params":{"PATH":"/etc/passwd"}}`, `differs only in case from "path"`},
		{"kelvin sign folds to k", "{\"params\":{\"toolCallId\":\"a\",\"\u212aind\":\"execute\"}}", `from "kind"`},
		{"long s folds to s", "{\"params\":{\"\u017fessionId\":\"other\"}}", `from "sessionId"`},
		{"case pair on unknown names", `{"params":{"_meta":{"zz":1,"ZZ":2}}}`, "case folding"},
		{"invalid UTF-8", "{\"params\":{\"path\":\"/ws/\xff\"}}", "UTF-8"},
		{"unpaired high surrogate", `{"params":{"path":"/ws/\ud800"}}`, "surrogate"},
		{"unpaired low surrogate", `{"params":{"path":"\udc00"}}`, "surrogate"},
		{"two values", `{"a":1} {"b":2}`, ""},
	}
	var d strictDecoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := d.check([]byte(tt.msg))
			if err == nil {
				t.Fatalf("accepted %s", tt.msg)
			}
			if !strings.Contains(err.Error(), tt.why) {
				t.Fatalf("refused with %q, want it to say %q", err, tt.why)
			}
		})
	}
}

// TestStrictDecoderAccepts: ordinary ACP messages, escapes, paired
// surrogates and names equal only across different objects pass.
func TestStrictDecoderAccepts(t *testing.T) {
	var big strings.Builder
	big.WriteString(`{"params":{"env":{`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			big.WriteByte(',')
		}
		big.WriteString(`"V` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":1`)
	}
	big.WriteString(`}}}`)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/ws/a","line":1,"limit":10}}`,
		`{"params":{"a":{"path":1},"b":{"path":2}}}`,
		`{"params":{"text":"emoji \ud83d\ude00 and \u00e9"}}`,
		`{"params":{"path":"x","Path2":"y"}}`,
		`{"a":[],"b":{},"c":[{"d":{}}]}`,
		big.String(),
	} {
		var d strictDecoder
		if err := d.check([]byte(msg)); err != nil {
			t.Errorf("refused %.80s: %v", msg, err)
		}
	}
}

// TestStrictDecoderLargeObject: names past the point where an object's
// names move to a set are still compared with all the others.
func TestStrictDecoderLargeObject(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"o":{`)
	for i := 0; i < 100; i++ {
		b.WriteString(`"k` + strings.Repeat("a", i) + `":1,`)
	}
	b.WriteString(`"K":1,"KA":2}}`)
	var d strictDecoder
	if err := d.check(b.Bytes()); err == nil || !strings.Contains(err.Error(), "case folding") {
		t.Fatalf("got %v, want a case folding refusal", err)
	}
	// The decoder is reused: the next message starts clean.
	if err := d.check([]byte(`{"o":{"k":1}}`)); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkStrictDecoder(b *testing.B) {
	stream := benchStream(2000)
	lines := bytes.Split(bytes.TrimSuffix(stream, []byte("\n")), []byte("\n"))
	b.SetBytes(int64(len(stream)))
	var d strictDecoder
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			if err := d.check(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkParse(b *testing.B) {
	stream := benchStream(2000)
	lines := bytes.Split(bytes.TrimSuffix(stream, []byte("\n")), []byte("\n"))
	b.SetBytes(int64(len(stream)))
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			if _, ok := parse(AgentToClient, l); !ok {
				b.Fatal("invalid")
			}
		}
	}
}

// BenchmarkStrictChunk measures what deciding strictness costs a stream
// of text chunks, on top of parsing them.
func BenchmarkStrictChunk(b *testing.B) {
	stream := benchStream(2000)
	lines := bytes.Split(bytes.TrimSuffix(stream, []byte("\n")), []byte("\n"))
	msgs := make([]*Message, len(lines))
	for i, l := range lines {
		msgs[i], _ = parse(AgentToClient, l)
	}
	br := New(Options{})
	b.SetBytes(int64(len(stream)))
	var d strictDecoder
	for i := 0; i < b.N; i++ {
		for _, m := range msgs {
			if r := br.refusalReason(m, &d); r != "" {
				b.Fatal(r)
			}
		}
	}
}

// TestChunkFastPath: a session/update is spared the full strict check only
// when it is a text chunk whose names down to its content block are
// unescaped, distinct under case folding within each object, and not case
// variants of read fields, and whose params.update.sessionUpdate (that
// one, not a namesake elsewhere) is a chunk variant.
func TestChunkFastPath(t *testing.T) {
	const head = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s",`
	tests := []struct {
		name, line string
		fast       bool
	}{
		{"agent text", head + `"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`, true},
		{"thought", head + `"update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hm"}}}}`, true},
		{"user text, _meta", head + `"update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"x","_meta":{}}},"_meta":{"a":1}}}`, true},
		{"unknown name elsewhere", head + `"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"},"extra":1}}}`, true},
		{"tool call", head + `"update":{"sessionUpdate":"tool_call","toolCallId":"t","kind":"read"}}}`, false},
		{"duplicate text", head + `"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","text":"b"}}}}`, false},
		{"duplicate sessionUpdate", head + `"update":{"sessionUpdate":"tool_call","sessionUpdate":"agent_message_chunk"}}}`, false},
		{"duplicate params", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk"}},"params":{"sessionId":"s","update":{"sessionUpdate":"tool_call"}}}`, false},
		{"case pair", head + `"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","Text":"b"}}}}`, false},
		{"case pair of unknown names", head + `"update":{"sessionUpdate":"agent_message_chunk","zz":1,"ZZ":2}}}`, false},
		{"case variant of a read field", head + `"update":{"sessionUpdate":"agent_message_chunk","ToolCallId":"t"}}}`, false},
		{"case variant of sessionUpdate", head + `"update":{"SessionUpdate":"tool_call","sessionUpdate":"agent_message_chunk"}}}`, false},
		{"escaped name", head + `"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","t\u0065xt":"x"}}}}`, false},
		{"kelvin sign", head + "\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"\u212aind\":\"execute\"}}}", false},
		{"chunk variant in a namesake", head + `"update":{"sessionUpdate":"tool_call"},"_meta":{"sessionUpdate":"agent_message_chunk"}}}`, false},
		{"namesake after the real one", head + `"update":{"sessionUpdate":"agent_message_chunk"},"_meta":{"sessionUpdate":"tool_call"}}}`, true},
		{"update outside params", `{"jsonrpc":"2.0","method":"session/update","x":{"update":{"sessionUpdate":"agent_message_chunk"}},"params":{"sessionId":"s","update":{"sessionUpdate":"tool_call"}}}`, false},
		{"no update", head + `"content":{"sessionUpdate":"agent_message_chunk"}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := parse(AgentToClient, []byte(tt.line))
			if !ok {
				t.Fatalf("not JSON: %s", tt.line)
			}
			if m.chunk != tt.fast {
				t.Errorf("fast path %v, want %v: %s", m.chunk, tt.fast, tt.line)
			}
		})
	}
}

// FuzzStrictBufferEdges: the decoder takes a message through its own
// buffer and resumes strings, names and numbers cut at the buffer's edges;
// read one byte at a time (the reading with the most edges) and read as
// the strict check reads it, a message must get the same verdict.
func FuzzStrictBufferEdges(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/ws/a"}}`,
		`{"params":{"path":"/ws/a","p\u0061th":"/etc/passwd"}}`,
		"{\"params\":{\"\u212aind\":\"execute\"}}",
		"{\"params\":{\"path\":\"/ws/\xff\"}}",
		`{"params":{"path":"/ws/\ud800"}}`,
		`{"params":{"text":"emoji \ud83d\ude00 and \u00e9 \n\t\\\""}}`,
		`{"a":1} {"b":2}`, `{"a":1} `, `[1,2.5e-3,-0,true,false,null]`, `{"a":`, `"x`, ``,
		// Past what every reader reads (rawjson.Portable), and just within.
		strings.Repeat("[", 101) + strings.Repeat("]", 101), strings.Repeat(`{"a":`, 101) + "1" + strings.Repeat("}", 101),
		strings.Repeat("[", 100) + strings.Repeat("]", 100), `{"n":1e400}`, `[-1E+999]`, `[1e308,1e-400]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var inPlace, streamed strictDecoder
		errInPlace := inPlace.decode(raw)
		errStreamed := streamed.checkFrom(iotest.OneByteReader(bytes.NewReader(raw)))
		if (errInPlace == nil) != (errStreamed == nil) {
			t.Fatalf("in place: %v; streamed: %v; input %q", errInPlace, errStreamed, raw)
		}
		// The decoder is reused: a second check of the same bytes agrees.
		if again := inPlace.decode(raw); (again == nil) != (errInPlace == nil) {
			t.Fatalf("first: %v; again: %v", errInPlace, again)
		}
	})
}

// BenchmarkStrictToolUpdate checks tool_call_update lines carrying 16 KiB
// of text, prose with escaped newlines and a run without them: the bulk
// of what the strict check reads in a long turn. check is the strict
// check of any bytes (the fast reading, then the decoder if it must look);
// parsed is the check as the wire runs it on a message it parsed
// (checkParsed); decoder is the decoder alone, what check costs without
// the fast reading. Compare CPU time (utime) over a fixed -benchtime NNNx:
// wall time on a loaded machine measures the load.
func BenchmarkStrictToolUpdate(b *testing.B) {
	for _, tc := range []struct{ name, unit string }{{"prose", `the build failed on line 12.\n`}, {"runs", "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0"}} {
		text := strings.Repeat(tc.unit, 16<<10/len(tc.unit))
		line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"` + text + `"}}]}}}`)
		for _, way := range []struct {
			name  string
			check func(*strictDecoder, []byte) error
		}{{"check", (*strictDecoder).check}, {"parsed", (*strictDecoder).checkParsed}, {"decoder", (*strictDecoder).decode}} {
			b.Run(way.name+"/"+tc.name, func(b *testing.B) {
				b.SetBytes(int64(len(line)))
				var d strictDecoder
				for b.Loop() {
					if err := way.check(&d, line); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// FuzzStrictFastAccept: a message the fast reading accepts is one the full
// decoder accepts, and check's verdict is the decoder's on every input.
func FuzzStrictFastAccept(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/ws/a"}}`,
		`{"params":{"path":"/ws/a","path":"/etc/passwd"}}`,
		`{"params":{"path":"/ws/a","PATH":"/etc/passwd"}}`,
		`{"params":{"PATH":"/etc/passwd"}}`,
		`{"params":{"_meta":{"zz":1,"ZZ":2}}}`,
		`{"params":{"x":[{"a":1,"a":2}]}}`,
		`{"a":{"k":1},"b":{"k":1}}`,
		"{\"params\":{\"\u212aind\":\"execute\"}}",
		"{\"params\":{\"\u017fessionId\":\"other\"}}",
		"{\"params\":{\"path\":\"/ws/\xff\"}}",
		`{"params":{"text":"tab\t and \"quote\" and \\ and \/"}}`,
		`{"a":1} {"b":2}`, `[1,2.5e-3,-0,true,false,null]`, `{"a":`, `{"a":01}`, `{"a":1,}`, ` {"a":[]} `,
		strings.Repeat("[", 101) + strings.Repeat("]", 101), strings.Repeat("[", 100) + strings.Repeat("]", 100),
		`{"n":1e400}`, `[-1E+999]`, `[1e308,1e-400]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var fast, full strictDecoder
		accepted := fast.fastAccept(raw)
		want := full.decode(raw)
		if accepted && want != nil {
			t.Fatalf("fast reading accepted %q, which the decoder refuses: %v", raw, want)
		}
		if got := fast.check(raw); (got == nil) != (want == nil) {
			t.Fatalf("check: %v; decoder: %v; input %q", got, want, raw)
		}
	})
}

// TestStrictFastAcceptTakesOrdinaryMessages: the fast reading is the one
// that decides the messages of an ordinary stream (tool updates with code
// and with a long run of base64, a permission request, a chunk), so the
// full decoder
// is left for what needs it; and it leaves each refusal to the decoder.
func TestStrictFastAcceptTakesOrdinaryMessages(t *testing.T) {
	var d strictDecoder
	for _, msg := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"func main() {\n\tfmt.Println(\"hi\")\n}\n"}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_2","status":"completed","content":[{"type":"content","content":{"type":"text","text":"` + strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0", 100) + `\n"}}]}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c","title":"Run ls","kind":"execute","rawInput":{"command":"ls -la"}},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"héllo wörld"}}}}`,
		`{"a":{"path":1},"b":{"path":2}}`,
	} {
		if !d.fastAccept([]byte(msg)) {
			t.Errorf("fast reading left to the decoder: %.100s", msg)
		}
	}
	for _, msg := range []string{
		`{"params":{"path":"/ws/a","path":"/etc/passwd"}}`,
		`{"params":{"path":"/ws/a","PATH":"/etc/passwd"}}`,
		`{"params":{"PATH":"/etc/passwd"}}`,
		`{"params":{"x":[{"a":1,"A":2}]}}`,
		`{"params":{"path":"/ws/a","p\u0061th":"/etc/passwd"}}`,
		"{\"params\":{\"path\":\"/ws/\xff\"}}",
		`{"a":1} {"b":2}`,
		strings.Repeat("[", fastMaxOpen+1) + strings.Repeat("]", fastMaxOpen+1),
	} {
		if d.fastAccept([]byte(msg)) {
			t.Errorf("fast reading accepted %.100s", msg)
		}
	}
}

// FuzzReadFieldOf: the fast readings' lookup of a folded name answers
// what readFolds, the decoder's, answers, for every read field, its case
// variants and any other name.
func FuzzReadFieldOf(f *testing.F) {
	for _, field := range readFields {
		f.Add(field)
		f.Add(strings.ToUpper(field))
	}
	f.Add("")
	f.Add("\u212aind")
	f.Add("sessionid2")
	f.Fuzz(func(t *testing.T, name string) {
		fold := foldName(nil, []byte(name))
		field, ok := readFieldOf(fold)
		want, wantOK := readFolds[string(fold)]
		if field != want || ok != wantOK {
			t.Fatalf("readFieldOf(%q) = %q, %v; readFolds: %q, %v", fold, field, ok, want, wantOK)
		}
	})
}
