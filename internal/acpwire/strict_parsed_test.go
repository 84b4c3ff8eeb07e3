package acpwire

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// parsedSeeds are messages parse accepts that the strict check must tell
// apart: ordinary ones, and each kind of refusal.
var parsedSeeds = []string{
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"func main() {\n\tfmt.Println(\"hi\")\n}\n"}}]}}}`,
	`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c","title":"Run ls","kind":"execute","rawInput":{"command":"ls -la"}},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`,
	`{"a":{"path":1},"b":{"path":2}}`,
	`{"o":{"a":{"k":1},"b":{"k":2},"k":3}}`,
	`{"params":{"path":"/ws/a","path":"/etc/passwd"}}`,
	`{"params":{"path":"/ws/a","PATH":"/etc/passwd"}}`,
	`{"params":{"PATH":"/etc/passwd"}}`,
	`{"params":{"x":[{"a":1,"A":2}]}}`,
	`{"params":{"path":"/ws/a","p\u0061th":"/etc/passwd"}}`,
	`{"params":{"text":"emoji \ud83d\ude00"}}`,
	`{"params":{"text":"lone \ud800"}}`,
	"{\"params\":{\"path\":\"/ws/\xff\"}}",
	"{\"params\":{\"\u212aind\":\"execute\"}}",
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"B":11}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":{"b":1}}`,
	`[1,2.5e-3,-0,true,false,null]`, ` {"a":[]} `, `"x"`, `7`,
	// Past what every reader reads (rawjson.Portable), and just within.
	`{"params":{"x":` + strings.Repeat("[", 99) + strings.Repeat("]", 99) + `}}`,
	`{"params":{"x":` + strings.Repeat("[", 98) + strings.Repeat("]", 98) + `}}`,
	`{"params":{"n":1e400,"m":[-1E+999]}}`,
	`{"params":{"n":1e308,"m":1e-400}}`,
}

// TestCheckParsedTakesOrdinaryMessages: on messages parse accepted, the
// structure-only reading decides the ordinary ones itself and leaves every
// refusal, and every message it is not sure of, to the decoder.
func TestCheckParsedTakesOrdinaryMessages(t *testing.T) {
	many := `{"a":[` + strings.Repeat(`[],`, fastMaxOpen) + `[]],"t":"` + strings.Repeat(`{[`, fastMaxOpen) + `"}`
	var d strictDecoder
	for _, msg := range append(parsedSeeds[:4:4], many,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_2","status":"completed","content":[{"type":"content","content":{"type":"text","text":"`+strings.Repeat(`the build failed on line 12.\n`, 600)+`"}}]}}}`) {
		m, ok := parse(AgentToClient, []byte(msg))
		if !ok {
			t.Fatalf("parse refused %.100s", msg)
		}
		if !d.fastAcceptParsed([]byte(msg)) {
			t.Errorf("structure reading left to the decoder: %.100s", msg)
		}
		// Told what parse learnt (its longest literal stepped over
		// unread), the structure reading decides as well.
		if !d.fastAcceptParsedHint(m.Raw, m.parsedFacts()) {
			t.Errorf("structure reading told %+v left to the decoder: %.100s", m.parsedFacts(), msg)
		}
		if err := d.checkParsed([]byte(msg)); err != nil {
			t.Errorf("checkParsed refused %.100s: %v", msg, err)
		}
	}
	deep := strings.Repeat("[", fastMaxOpen+1) + strings.Repeat("]", fastMaxOpen+1)
	for _, msg := range append(parsedSeeds[4:12:12], deep, parsedSeeds[13]) {
		if d.fastAcceptParsed([]byte(msg)) {
			t.Errorf("structure reading accepted %.100s", msg)
		}
	}
	for _, msg := range append(parsedSeeds[4:9:9], parsedSeeds[10], parsedSeeds[11], parsedSeeds[12], parsedSeeds[13]) {
		if d.checkParsed([]byte(msg)) == nil {
			t.Errorf("checkParsed accepted %.100s", msg)
		}
	}
}

// FuzzCheckParsed: on every input parse accepts, checkParsed gives the
// decoder's verdict, the structure reading accepts only what the decoder
// accepts, and it accepts whatever the validating fast reading (fastAccept)
// accepts, so the decoder is never asked more often than before.
func FuzzCheckParsed(f *testing.F) {
	for _, s := range parsedSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, ok := parse(AgentToClient, raw)
		if !ok {
			return
		}
		// parse's word on \u escapes is true to the bytes: the reading of
		// an object member by member says whether one is there; a text
		// chunk's quick reading, and that of any other value, says nothing.
		object := bytes.HasPrefix(raw[skipJSONSpace(raw, 0):], []byte("{"))
		facts := m.parsedFacts()
		if hasU := hasUEscape(raw); facts.NoUEscape && hasU || object && !m.chunkLine && facts.NoUEscape == hasU {
			t.Fatalf("parse: no \\u escape %v in %q", facts.NoUEscape, raw)
		}
		if nonASCII := !isASCII(raw); facts.ASCII && nonASCII || object && !m.chunkLine && facts.ASCII == nonASCII {
			t.Fatalf("parse: ASCII %v in %q", facts.ASCII, raw)
		}
		var parsed, fast, full strictDecoder
		want := full.decode(raw)
		// Told what parse found, the check gives the decoder's verdict too.
		if _, got := parsed.checkParsedHint(raw, facts); (got == nil) != (want == nil) {
			t.Fatalf("checkParsedHint(%+v): %v; decoder: %v; input %q", facts, got, want, raw)
		}
		accepted := parsed.fastAcceptParsed(raw)
		if accepted && want != nil {
			t.Fatalf("structure reading accepted %q, which the decoder refuses: %v", raw, want)
		}
		if fast.fastAccept(raw) && !accepted {
			t.Fatalf("structure reading left %q to the decoder, which the validating reading accepts", raw)
		}
		if got := parsed.checkParsed(raw); (got == nil) != (want == nil) {
			t.Fatalf("checkParsed: %v; decoder: %v; input %q", got, want, raw)
		}
		// The decoder is reused: a second check of the same bytes agrees.
		if again := parsed.checkParsed(raw); (again == nil) != (want == nil) {
			t.Fatalf("first: %v; again: %v", want, again)
		}
		// What an accepting check records of the strings it passed (every
		// one, here) is what reading them finds: the end ValidString finds,
		// each found valid. A refused message records nothing.
		parsed.known.Min = 2
		known, err := parsed.checkParsedKnown(raw)
		if err != nil {
			if k := known.In(raw); k.Len() != 0 {
				t.Fatalf("%q refused (%v), with strings recorded", raw, err)
			}
			return
		}
		k := known.In(raw)
		for i := range raw {
			end, ok := k.End(raw, i)
			if !ok {
				continue
			}
			if want, valid := rawjson.ValidString(raw, i); !valid || want != end {
				t.Fatalf("%q at %d: recorded end %d; ValidString %d, %v", raw, i, end, want, valid)
			}
		}
		// Told what parse found (where the longest literal is, which it
		// then steps over unread), the check records only literals
		// reading finds, and, when the structure reading untold decided
		// too (not the decoder, which records nothing), the same ones.
		hinted, err := parsed.checkParsedHint(raw, facts)
		if err != nil {
			t.Fatalf("checkParsedHint(%+v) refused %q, which checkParsedKnown accepts: %v", facts, raw, err)
		}
		h := hinted.In(raw)
		for i := range raw {
			e1, ok1 := k.End(raw, i)
			e2, ok2 := h.End(raw, i)
			if accepted && (ok1 != ok2 || e1 != e2) {
				t.Fatalf("%q at %d: recorded %d, %v; told %+v, %d, %v", raw, i, e1, ok1, facts, e2, ok2)
			}
			if want, valid := rawjson.ValidString(raw, i); ok2 && (!valid || want != e2) {
				t.Fatalf("%q at %d: told %+v, recorded end %d; ValidString %d, %v", raw, i, facts, e2, want, valid)
			}
		}
	})
}

// isASCII reports whether every byte of b is below 0x80.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// hasUEscape reports whether valid JSON raw holds a \u escape: outside
// strings JSON has no backslash, and inside one each starts an escape.
func hasUEscape(raw []byte) bool {
	for i := 0; i+1 < len(raw); i++ {
		if raw[i] == '\\' {
			if raw[i+1] == 'u' {
				return true
			}
			i++
		}
	}
	return false
}

// TestHeldCopyKeepsNoBytes: a copy of a message checked strictly that
// drops its bytes (as governance holds a permission request while the
// person decides) keeps none of them alive through the record of its long
// strings: the record is offsets (rawjson.StringSpans), given the bytes
// only while the message still carries them.
func TestHeldCopyKeepsNoBytes(t *testing.T) {
	buf := []byte(`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c","rawInput":{"content":"` + strings.Repeat("x", 4<<20) + `"}},"options":[]}}`)
	bytesAlive := weak.Make(&buf[0])
	m, ok := parse(AgentToClient, buf)
	if !ok {
		t.Fatal("parse refused the request")
	}
	var d strictDecoder
	known, err := d.checkParsedKnown(m.Raw)
	if err != nil {
		t.Fatal(err)
	}
	m.strict, m.known = true, known
	if k := m.KnownStrings(); k.Len() != 1 {
		t.Fatalf("%d literals recorded, want the content's 1", k.Len())
	}
	held := *m
	held.Raw, held.Params, held.Result, held.Error, held.Batch, held.Request = nil, nil, nil, nil, nil, nil
	held.ID = bytes.Clone(m.ID)
	m, buf = nil, nil
	runtime.GC()
	if bytesAlive.Value() != nil {
		t.Fatal("the held copy keeps the message's 4 MiB alive")
	}
	if k := held.KnownStrings(); k.Len() != 0 {
		t.Fatal("the held copy, without its bytes, answers for its strings")
	}
}
